import { Injectable, computed, inject, signal } from '@angular/core';
import type {
  SettingGroup,
  SettingItem,
  SettingValue,
  SettingsTestReply,
  SettingsTestRequest,
} from '@usher/contracts';
import { ConnectionTests } from '../../core/api/connection-tests';
import { ErrorTexts, type ErrorText } from '../../core/api/error-text';
import { Notifier } from '../../core/notifier';
import {
  type MediaLibrary,
  SettingsApi,
  type SettingsGroupView,
  type SettingsList,
} from './settings-api';
import {
  type Draft,
  fieldErrors,
  isBroken,
  reentryKeys,
  tokenFromBytes,
  webhookUrl,
  withCleared,
  withEdit,
  withoutEdit,
} from './settings-logic';

/** A group's last connection test. */
export interface TestState {
  busy: boolean;
  reply: SettingsTestReply | null;
  error: ErrorText | null;
}

type PerGroup<T> = Partial<Record<SettingGroup, T>>;

/**
 * State of the settings page (60-web.md §4.3 "Settings"): the loaded groups, one unsaved draft
 * per group, per-key validation errors, saving and testing. Provided by the page, so a visit
 * starts clean; the page itself only binds and delegates.
 */
@Injectable()
export class SettingsEditor {
  private readonly api = inject(SettingsApi);
  private readonly errors = inject(ErrorTexts);
  private readonly notifier = inject(Notifier);
  private readonly connectionTests = inject(ConnectionTests);

  readonly list = signal<SettingsList | null>(null);
  readonly loadError = signal<ErrorText | null>(null);
  readonly selected = signal<SettingGroup>('general');
  readonly drafts = signal<PerGroup<Draft>>({});
  readonly fieldErrors = signal<PerGroup<Record<string, string>>>({});
  /** Secrets the API asked to have typed again, because the draft moves their address. */
  readonly reentry = signal<PerGroup<string[]>>({});
  readonly groupErrors = signal<PerGroup<ErrorText>>({});
  readonly saving = signal<SettingGroup | null>(null);
  readonly tests = signal<PerGroup<TestState>>({});
  /** The e-mail group's "Send a test message to" address. */
  readonly testRecipient = signal('');
  /** The full webhook URL after Generate, shown once until the page is left. */
  readonly generatedWebhookUrl = signal<string | null>(null);

  /**
   * The media server's libraries for the library-id lists; null until loaded, or when the
   * server cannot be asked (not configured, down): those lists then stay free-text chips.
   */
  readonly libraries = signal<MediaLibrary[] | null>(null);
  private librariesRequested = false;

  readonly groups = computed(() => this.list()?.groups ?? []);
  /**
   * Whether the stored settings name a media server (URL and key): only then is it asked for
   * its libraries, so an unconfigured install does not log a 503 on every visit.
   */
  readonly mediaServerConfigured = computed(() => {
    const items = this.groups().find((g) => g.group === 'media_server')?.items ?? [];
    const url = items.find((i) => i.key === 'MEDIA_SERVER_URL');
    const key = items.find((i) => i.key === 'MEDIA_SERVER_API_KEY');
    return Boolean(url?.value) && key?.hasValue === true && key.state !== 'undecryptable';
  });
  readonly current = computed<SettingsGroupView | null>(
    () => this.groups().find((g) => g.group === this.selected()) ?? this.groups()[0] ?? null,
  );
  readonly currentDraft = computed<Draft>(
    () => this.drafts()[this.current()?.group ?? 'general'] ?? {},
  );
  readonly unsaved = computed(() =>
    Object.values(this.drafts()).some((draft) => draft && Object.keys(draft).length > 0),
  );

  async load(): Promise<void> {
    this.loadError.set(null);
    try {
      this.list.set(await this.api.list());
    } catch (error) {
      this.loadError.set(this.errors.describe(error));
    }
  }

  /** Loads the library list once per visit; a failure keeps the chips (and may be retried). */
  async loadLibraries(): Promise<void> {
    if (this.librariesRequested || !this.mediaServerConfigured()) return;
    this.librariesRequested = true;
    try {
      this.libraries.set(await this.api.libraries());
    } catch {
      this.librariesRequested = false;
      this.libraries.set(null);
    }
  }

  /** Picks a group by name; unknown names (a stale link) fall back to the first group. */
  select(group: string | null | undefined): void {
    const known = this.groups().find((g) => g.group === group);
    this.selected.set(known?.group ?? this.groups()[0]?.group ?? 'general');
  }

  brokenCount(group: SettingsGroupView): number {
    return group.items.filter(isBroken).length;
  }

  hasFieldErrors(group: SettingGroup): boolean {
    return Object.keys(this.fieldErrors()[group] ?? {}).length > 0;
  }

  isDirty(group: SettingGroup): boolean {
    return Object.keys(this.drafts()[group] ?? {}).length > 0;
  }

  /** Whether the API asked for this secret again (its address changed in the draft). */
  needsReentry(item: SettingItem): boolean {
    return this.reentry()[item.group]?.includes(item.key) ?? false;
  }

  edit(item: SettingItem, value: SettingValue): void {
    this.updateDraft(item.group, (draft) => withEdit(draft, item, value));
    this.clearFieldError(item);
    this.reentry.update((all) => ({
      ...all,
      [item.group]: (all[item.group] ?? []).filter((k) => k !== item.key),
    }));
  }

  /** Clear (secrets) and Revert to default/env (database values): both send `null`. */
  clear(item: SettingItem): void {
    this.updateDraft(item.group, (draft) => withCleared(draft, item));
    this.clearFieldError(item);
  }

  undo(item: SettingItem): void {
    this.updateDraft(item.group, (draft) => withoutEdit(draft, item));
    this.clearFieldError(item);
  }

  discard(group: SettingGroup): void {
    this.drafts.update((all) => ({ ...all, [group]: {} }));
    this.fieldErrors.update((all) => ({ ...all, [group]: {} }));
    this.reentry.update((all) => ({ ...all, [group]: [] }));
    this.groupErrors.update((all) => ({ ...all, [group]: undefined }));
    if (group === 'media_server') this.generatedWebhookUrl.set(null);
  }

  /** Fills the webhook token with a fresh random value and shows the URL it makes. */
  generateWebhookToken(item: SettingItem): void {
    const token = tokenFromBytes(crypto.getRandomValues(new Uint8Array(32)));
    this.edit(item, token);
    const publicUrl = this.groups()
      .flatMap((g) => g.items)
      .find((i) => i.key === 'PUBLIC_WEB_URL')?.value;
    const base = typeof publicUrl === 'string' && publicUrl ? publicUrl : location.origin;
    this.generatedWebhookUrl.set(webhookUrl(base, token));
  }

  /** One `PUT` with the changed keys; all or nothing, errors placed on their fields. */
  async save(group: SettingGroup): Promise<boolean> {
    const draft = this.drafts()[group] ?? {};
    if (Object.keys(draft).length === 0 || this.saving()) return false;
    this.saving.set(group);
    this.groupErrors.update((all) => ({ ...all, [group]: undefined }));
    try {
      const items = await this.api.update(group, draft);
      this.replaceItems(group, items);
      this.drafts.update((all) => ({ ...all, [group]: {} }));
      this.fieldErrors.update((all) => ({ ...all, [group]: {} }));
      this.reentry.update((all) => ({ ...all, [group]: [] }));
      this.notifier.show('adminSettings.saved');
      return true;
    } catch (error) {
      const perKey = fieldErrors(error);
      this.askAgainFor(group, error);
      if (perKey) this.fieldErrors.update((all) => ({ ...all, [group]: perKey }));
      else this.groupErrors.update((all) => ({ ...all, [group]: this.errors.describe(error) }));
      return false;
    } finally {
      this.saving.set(null);
    }
  }

  /** Tests the group with the unsaved draft overlaid (nothing is saved). */
  async test(group: SettingGroup): Promise<void> {
    if (this.tests()[group]?.busy) return;
    const draft = this.drafts()[group] ?? {};
    const body: SettingsTestRequest = {};
    if (Object.keys(draft).length > 0) body.values = draft;
    const to = this.testRecipient().trim();
    if (group === 'email' && to) body.to = to;
    this.setTest(group, { busy: true, reply: null, error: null });
    try {
      const reply = await this.api.test(group, body);
      // The setup checklist shows the last test of the saved settings (not of a draft).
      if (!body.values) this.connectionTests.record(group, reply);
      this.setTest(group, { busy: false, reply, error: null });
    } catch (error) {
      const perKey = fieldErrors(error);
      this.askAgainFor(group, error);
      if (perKey) this.fieldErrors.update((all) => ({ ...all, [group]: perKey }));
      this.setTest(group, { busy: false, reply: null, error: this.errors.describe(error) });
    }
  }

  /** On `SECRET_REENTRY_REQUIRED`, marks the secrets to type again; the draft is kept. */
  private askAgainFor(group: SettingGroup, error: unknown): void {
    const keys = reentryKeys(error);
    if (keys) this.reentry.update((all) => ({ ...all, [group]: keys }));
  }

  private setTest(group: SettingGroup, state: TestState): void {
    this.tests.update((all) => ({ ...all, [group]: state }));
  }

  private updateDraft(group: SettingGroup, change: (draft: Draft) => Draft): void {
    this.drafts.update((all) => ({ ...all, [group]: change(all[group] ?? {}) }));
  }

  private clearFieldError(item: SettingItem): void {
    const current = this.fieldErrors()[item.group];
    if (!current || !(item.key in current)) return;
    const next = { ...current };
    delete next[item.key];
    this.fieldErrors.update((all) => ({ ...all, [item.group]: next }));
  }

  private replaceItems(group: SettingGroup, items: SettingItem[]): void {
    const list = this.list();
    if (!list) return;
    const stillBroken = new Set(list.encryption.undecryptable);
    for (const item of items) {
      if (item.state === 'undecryptable') stillBroken.add(item.key);
      else stillBroken.delete(item.key);
    }
    this.list.set({
      groups: list.groups.map((g) => (g.group === group ? { ...g, items } : g)),
      encryption: { ...list.encryption, undecryptable: [...stillBroken] },
    });
  }
}
