import {
  ChangeDetectionStrategy,
  Component,
  type ElementRef,
  computed,
  effect,
  inject,
  input,
  linkedSignal,
  signal,
  untracked,
  viewChild,
} from '@angular/core';
import { MatButton } from '@angular/material/button';
import { MatButtonToggle, MatButtonToggleGroup } from '@angular/material/button-toggle';
import { MatIcon } from '@angular/material/icon';
import { RouterLink } from '@angular/router';
import { TranslocoDirective } from '@jsverse/transloco';
import type { LifecyclePreviewRequest, SettingItem } from '@usher/contracts';
import {
  NOTICE_PLACEHOLDERS,
  TEMPLATE_NOTICE_KINDS,
  noticeTemplateKeys,
  type LifecycleChannel,
  type Locale,
  type TemplateNoticeKind,
} from '@usher/contracts/values';
import { apiResource } from '../../core/api/api-resource';
import { action } from '../../shared/action';
import { TEXT_FIELD } from '../../shared/form-field';
import { FormError } from '../../shared/form-error';
import { CHANNEL_ICONS } from '../../shared/notices/notice-table';
import { ErrorState } from '../../shared/page-state';
import { SubmitButton } from '../../shared/submit-button';
import { SettingsApi, fieldErrors } from '../admin-settings';
import { LifecycleApi } from './lifecycle-api';

/** How long typing must pause before the preview is asked for. */
export const PREVIEW_DELAY_MS = 400;
const LOCALES: readonly Locale[] = ['en', 'zh-CN'];
const TEST_CHANNELS: readonly LifecycleChannel[] = ['email', 'messenger', 'webhook'];

/** A notice's subject and text in one language. */
export interface Template {
  subject: string;
  text: string;
}
type Templates = Record<TemplateNoticeKind, Record<Locale, Template>>;

function valueOf(items: readonly SettingItem[], key: string): string {
  const item = items.find((i) => i.key === key);
  const value = item?.value ?? item?.default;
  return typeof value === 'string' ? value : '';
}

/** Every kind and language, in the order the editor saves them. */
const SLOTS = TEMPLATE_NOTICE_KINDS.flatMap((kind) =>
  LOCALES.map((locale) => ({ kind, locale, keys: noticeTemplateKeys(kind, locale) })),
);

/**
 * The texts of each lifecycle notice kind — the reminder, the deletion warning, the inactivity
 * warning — per language (settings `<KIND>_SUBJECT_*` / `<KIND>_TEMPLATE_*`): the kind's
 * placeholders as buttons that insert themselves, a live preview rendered by the API with the
 * admin as the sample member (an unknown placeholder shows the API's refusal there), Save, and
 * "send me a test" on each channel — which sends the saved text, so it asks for a save first.
 */
@Component({
  selector: 'app-template-editor',
  imports: [
    MatButton,
    MatButtonToggle,
    MatButtonToggleGroup,
    MatIcon,
    RouterLink,
    TranslocoDirective,
    FormError,
    ErrorState,
    SubmitButton,
    ...TEXT_FIELD,
  ],
  templateUrl: './template-editor.html',
  styleUrl: './template-editor.scss',
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class TemplateEditor {
  private readonly settingsApi = inject(SettingsApi);
  private readonly api = inject(LifecycleApi);
  /** False while the tab is hidden: nothing loads. */
  readonly active = input(true);

  protected readonly kinds = TEMPLATE_NOTICE_KINDS;
  protected readonly locales = LOCALES;
  protected readonly channels = TEST_CHANNELS;
  protected readonly channelIcons = CHANNEL_ICONS;
  protected readonly kind = signal<TemplateNoticeKind>('expiry_reminder');
  protected readonly locale = signal<Locale>('en');
  protected readonly placeholders = computed(() => NOTICE_PLACEHOLDERS[this.kind()]);

  private readonly settings = apiResource({
    params: () => (this.active() ? true : undefined),
    load: () => this.settingsApi.list(),
  });
  /** The saved texts, as the settings list has them (a default until an admin saves one). */
  private readonly saved = computed<Templates | null>(() => {
    const group = this.settings.value()?.groups.find((g) => g.group === 'lifecycle');
    if (!group) return null;
    const all = {} as Templates;
    for (const { kind, locale, keys } of SLOTS) {
      all[kind] = {
        ...all[kind],
        [locale]: {
          subject: valueOf(group.items, keys.subject),
          text: valueOf(group.items, keys.text),
        },
      };
    }
    return all;
  });
  protected readonly drafts = linkedSignal<Templates | null>(() => this.saved());
  protected readonly loadError = this.settings.error;
  protected readonly current = computed(() => this.drafts()?.[this.kind()][this.locale()] ?? null);
  /** The setting values the drafts change, by key (what Save sends). */
  private readonly changes = computed(() => {
    const saved = this.saved();
    const drafts = this.drafts();
    const values: Record<string, string> = {};
    if (!saved || !drafts) return values;
    for (const { kind, locale, keys } of SLOTS) {
      const [was, now] = [saved[kind][locale], drafts[kind][locale]];
      if (now.subject !== was.subject) values[keys.subject] = now.subject;
      if (now.text !== was.text) values[keys.text] = now.text;
    }
    return values;
  });
  protected readonly dirty = computed(() => Object.keys(this.changes()).length > 0);

  /** The draft the preview shows, set once typing pauses. */
  private readonly previewDraft = signal<LifecyclePreviewRequest | undefined>(undefined);
  protected readonly preview = apiResource({
    params: () => this.previewDraft(),
    load: (draft, abort) => this.api.preview(draft, abort),
  });

  /** The preview of the kind and language on screen (a reload keeps the previous one). */
  protected readonly shownPreview = computed(() => {
    const preview = this.preview.value();
    return preview?.kind === this.kind() && preview.locale === this.locale() ? preview : null;
  });

  /** Why the preview was refused: the API's reason per field (an unknown placeholder). */
  protected readonly previewProblem = computed(() => {
    const reasons = fieldErrors(this.preview.failure());
    return reasons ? Object.values(reasons).join(' ') : (this.preview.error()?.message ?? null);
  });
  protected readonly saving = action();
  protected readonly testing = action();
  protected readonly testingChannel = signal<LifecycleChannel | null>(null);
  private readonly textArea = viewChild<ElementRef<HTMLTextAreaElement>>('body');

  constructor() {
    effect((onCleanup) => {
      const current = this.current();
      const kind = this.kind();
      const locale = this.locale();
      if (!current) return;
      const draft = { kind, locale, subject: current.subject, text: current.text };
      // Another kind or language is shown at once; typing waits for a pause.
      const last = untracked(this.previewDraft);
      if (last?.kind !== kind || last.locale !== locale) {
        this.previewDraft.set(draft);
        return;
      }
      const timer = setTimeout(() => this.previewDraft.set(draft), PREVIEW_DELAY_MS);
      onCleanup(() => clearTimeout(timer));
    });
  }

  protected edit(field: keyof Template, value: string): void {
    const kind = this.kind();
    const locale = this.locale();
    this.drafts.update((all) =>
      all
        ? {
            ...all,
            [kind]: { ...all[kind], [locale]: { ...all[kind][locale], [field]: value } },
          }
        : all,
    );
    this.saving.clear();
  }

  protected selectKind(kind: TemplateNoticeKind): void {
    this.kind.set(kind);
    this.testing.clear();
  }

  /** Puts `{name}` where the cursor is in the message (at its end when it was never focused). */
  protected insert(name: string): void {
    const text = this.current()?.text ?? '';
    const area = this.textArea()?.nativeElement;
    const token = `{${name}}`;
    const start = area ? area.selectionStart : text.length;
    const end = area ? area.selectionEnd : text.length;
    this.edit('text', text.slice(0, start) + token + text.slice(end));
    if (area) {
      queueMicrotask(() => {
        area.focus();
        area.setSelectionRange(start + token.length, start + token.length);
      });
    }
  }

  /** Saves what changed, every kind and language at once (an unchanged default stays one). */
  protected save(): Promise<boolean> {
    const values = this.changes();
    if (Object.keys(values).length === 0) return Promise.resolve(false);
    return this.saving.run(() => this.settingsApi.update('lifecycle', values), {
      done: 'lifecycle.templates.saved',
      handle: (error) => {
        const reasons = fieldErrors(error);
        if (reasons)
          this.saving.show({ message: Object.values(reasons).join(' '), reference: null });
        return reasons !== null;
      },
      after: () => this.settings.reload(),
    });
  }

  protected sendTest(channel: LifecycleChannel): Promise<boolean> {
    this.testingChannel.set(channel);
    const body = { kind: this.kind(), channel, locale: this.locale() };
    return this.testing.run(() => this.api.test(body), {
      done: `lifecycle.templates.testSent.${channel}`,
      after: () => this.testingChannel.set(null),
    });
  }
}
