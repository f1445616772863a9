import { ChangeDetectionStrategy, Component, computed, inject, signal } from '@angular/core';
import { MatAnchor, MatButton } from '@angular/material/button';
import { MatCard, MatCardContent, MatCardHeader, MatCardTitle } from '@angular/material/card';
import { MatIcon } from '@angular/material/icon';
import { MatProgressSpinner } from '@angular/material/progress-spinner';
import { RouterLink } from '@angular/router';
import { TranslocoDirective } from '@jsverse/transloco';
import type { SettingGroup, SystemInfo } from '@usher/contracts';
import { apiResource } from '../../core/api/api-resource';
import { ConnectionTests } from '../../core/api/connection-tests';
import { ErrorTexts, type ErrorText } from '../../core/api/error-text';
import { LocalDatePipe } from '../../shared/local-date';
import { ErrorState } from '../../shared/page-state';
import { StatusChip, type Tone } from '../../shared/status-chip';
import { MediaHomeApi } from './media-home-api';

type Integration = keyof SystemInfo['integrations'];

/** The checklist's rows: the integration of `/admin/system/info` and its settings group. */
export const SETUP_ITEMS: readonly { id: Integration; group: SettingGroup; icon: string }[] = [
  { id: 'mediaServer', group: 'media_server', icon: 'dns' },
  { id: 'metadata', group: 'metadata', icon: 'travel_explore' },
  { id: 'automation', group: 'automation', icon: 'downloading' },
  { id: 'email', group: 'email', icon: 'mail' },
  { id: 'payments', group: 'payment', icon: 'payments' },
  { id: 'bot', group: 'messenger', icon: 'smart_toy' },
];

/** What an install needs before members can use it (60-web.md §2.3 step 5). */
const ESSENTIAL: readonly Integration[] = ['mediaServer', 'metadata', 'email'];

const TEST_VIEW: Record<'ok' | 'warn' | 'fail', { tone: Tone; icon: string; key: string }> = {
  ok: { tone: 'success', icon: 'check_circle', key: 'mediaHome.setup.test.ok' },
  warn: { tone: 'warning', icon: 'warning', key: 'mediaHome.setup.test.warn' },
  fail: { tone: 'error', icon: 'error', key: 'mediaHome.setup.test.fail' },
};

/**
 * The admin's setup checklist on the overview (60-web.md §4.2 "Admin extras", issue 18): for
 * the media server, metadata, automation, e-mail, payments and the bot, whether it is configured
 * (`GET /admin/system/info`), the last connection test of its saved settings (`ConnectionTests`)
 * with a Test button, and a link to its settings group.
 */
@Component({
  selector: 'app-setup-checklist',
  imports: [
    MatAnchor,
    MatButton,
    MatCard,
    MatCardContent,
    MatCardHeader,
    MatCardTitle,
    MatIcon,
    MatProgressSpinner,
    RouterLink,
    TranslocoDirective,
    LocalDatePipe,
    ErrorState,
    StatusChip,
  ],
  templateUrl: './setup-checklist.html',
  styleUrl: './setup-checklist.scss',
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class SetupChecklist {
  private readonly api = inject(MediaHomeApi);
  private readonly errors = inject(ErrorTexts);
  protected readonly tests = inject(ConnectionTests);
  protected readonly items = SETUP_ITEMS;
  protected readonly testView = TEST_VIEW;
  protected readonly info = apiResource({
    params: () => true,
    load: () => this.api.systemInfo(),
  });
  /** The group whose test is running. */
  protected readonly testing = signal<SettingGroup | null>(null);
  protected readonly testErrors = signal<Partial<Record<SettingGroup, ErrorText>>>({});

  protected readonly configuredCount = computed(() => {
    const integrations = this.info.value()?.integrations;
    return integrations ? SETUP_ITEMS.filter((i) => integrations[i.id] === 'configured').length : 0;
  });
  /** "Finish setup" until the essentials are configured; "Connections" afterwards. */
  protected readonly finished = computed(() => {
    const integrations = this.info.value()?.integrations;
    return integrations ? ESSENTIAL.every((id) => integrations[id] === 'configured') : false;
  });

  protected async test(group: SettingGroup): Promise<void> {
    if (this.testing()) return;
    this.testing.set(group);
    this.testErrors.update(({ [group]: _, ...rest }) => rest);
    try {
      await this.tests.run(group);
    } catch (error) {
      this.testErrors.update((all) => ({ ...all, [group]: this.errors.describe(error) }));
    } finally {
      this.testing.set(null);
    }
  }
}
