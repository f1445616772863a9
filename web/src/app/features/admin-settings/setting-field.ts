import {
  ChangeDetectionStrategy,
  Component,
  computed,
  effect,
  inject,
  input,
  untracked,
} from '@angular/core';
import { CdkCopyToClipboard } from '@angular/cdk/clipboard';
import { MatButton, MatIconButton } from '@angular/material/button';
import {
  type MatChipInputEvent,
  MatChipGrid,
  MatChipInput,
  MatChipRemove,
  MatChipRow,
} from '@angular/material/chips';
import { MatIcon } from '@angular/material/icon';
import { MatOption, MatSelect } from '@angular/material/select';
import { MatSlideToggle } from '@angular/material/slide-toggle';
import { MatTooltip } from '@angular/material/tooltip';
import { TranslocoDirective } from '@jsverse/transloco';
import type { SettingItem, SettingValue } from '@usher/contracts';
import { LocalDatePipe } from '../../shared/local-date';
import { SettingsEditor } from './settings-editor';
import {
  LIBRARY_KEYS,
  addToList,
  htmlInputType,
  inputKind,
  parseInteger,
  shownValue,
  sourceKey,
} from './settings-logic';
import { SettingText } from './setting-text';
import { TEXT_FIELD } from '../../shared/form-field';

/**
 * One setting: its one label (the heading, which names the control too: no floating label or
 * placeholder repeats it), quiet source and apply chips, the input for its type, its error and
 * its history.
 */
/** Kinds of setting not drawn as one text box. */
const NOT_TEXT_BOXES = new Set(['toggle', 'select', 'chips', 'libraries', 'readonly']);

@Component({
  selector: 'app-setting-field',
  imports: [
    CdkCopyToClipboard,
    MatButton,
    MatIconButton,
    MatChipGrid,
    MatChipInput,
    MatChipRemove,
    MatChipRow,
    MatIcon,
    MatOption,
    MatSelect,
    MatSlideToggle,
    MatTooltip,
    TranslocoDirective,
    LocalDatePipe,
    ...TEXT_FIELD,
  ],
  templateUrl: './setting-field.html',
  styleUrl: './setting-field.scss',
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class SettingField {
  private readonly editor = inject(SettingsEditor);
  protected readonly text = inject(SettingText);
  readonly item = input.required<SettingItem>();

  protected readonly kind = computed(() => {
    const kind = inputKind(this.item());
    return kind === 'chips' && this.libraryOptions() ? 'libraries' : kind;
  });
  /** Libraries to pick from (plus any stored id the server no longer lists), or null. */
  protected readonly libraryOptions = computed(() => {
    if (!LIBRARY_KEYS.has(this.item().key)) return null;
    const libraries = this.editor.libraries();
    if (!libraries) return null;
    const known = new Set(libraries.map((l) => l.id));
    const unknown = this.listValue().filter((id) => !known.has(id));
    return [
      ...libraries.map((l) => ({ id: l.id, name: l.name })),
      ...unknown.map((id) => ({ id, name: id })),
    ];
  });
  protected readonly inputType = computed(() => htmlInputType(this.item()));
  protected readonly sourceKey = computed(() => sourceKey(this.item()));
  protected readonly id = computed(() => `setting-${this.item().key}`);
  /** The text box the label is for; null for the kinds drawn otherwise (toggles, selects). */
  protected readonly controlFor = computed(() =>
    NOT_TEXT_BOXES.has(this.kind()) ? null : `${this.id()}-control`,
  );
  private readonly draft = computed(() => this.editor.drafts()[this.item().group] ?? {});
  protected readonly edited = computed(() => this.item().key in this.draft());
  protected readonly cleared = computed(
    () => this.edited() && this.draft()[this.item().key] === null,
  );
  protected readonly value = computed(() => shownValue(this.item(), this.draft()));
  protected readonly textValue = computed(() => {
    const value = this.value();
    return value === null || value === undefined ? '' : String(value);
  });
  protected readonly listValue = computed(() => {
    const value = this.value();
    return Array.isArray(value) ? value : [];
  });
  protected readonly reentry = computed(() => this.editor.needsReentry(this.item()));
  protected readonly error = computed(
    () => this.editor.fieldErrors()[this.item().group]?.[this.item().key] ?? null,
  );
  /** Limits named in the translated "not accepted" line (the API's own detail stays English). */
  protected readonly invalidParams = computed(() => {
    const { min, max } = this.item();
    return { min: min ?? '…', max: max ?? '…' };
  });
  protected readonly hint = computed(() => {
    const { fallbackHint } = this.item();
    return fallbackHint ?? null;
  });
  protected readonly defaultText = computed(() => {
    const value = this.item().default;
    if (value === null || value === undefined || value === '') return null;
    return Array.isArray(value) ? value.join(', ') : String(value);
  });
  protected readonly isWebhookToken = computed(
    () => this.item().key === 'MEDIA_SERVER_WEBHOOK_TOKEN',
  );
  protected readonly isWebhookUrl = computed(() => this.item().key === 'MEDIA_SERVER_WEBHOOK_URL');
  protected readonly generatedUrl = this.editor.generatedWebhookUrl;

  constructor() {
    effect(() => {
      const wanted = LIBRARY_KEYS.has(this.item().key) && this.item().editable;
      if (wanted && this.editor.mediaServerConfigured()) {
        untracked(() => void this.editor.loadLibraries());
      }
    });
  }

  protected set(value: SettingValue): void {
    this.editor.edit(this.item(), value);
  }

  protected setText(event: Event): void {
    this.set((event.target as HTMLInputElement).value);
  }

  protected setInteger(event: Event): void {
    this.set(parseInteger((event.target as HTMLInputElement).value));
  }

  protected addChips(event: MatChipInputEvent): void {
    const next = addToList(this.listValue(), event.value);
    event.chipInput.clear();
    if (next.length !== this.listValue().length) this.set(next);
  }

  protected removeChip(entry: string): void {
    this.set(this.listValue().filter((v) => v !== entry));
  }

  protected clear(): void {
    this.editor.clear(this.item());
  }

  protected undo(): void {
    this.editor.undo(this.item());
  }

  protected generate(): void {
    this.editor.generateWebhookToken(this.item());
  }
}
