import { CountPipe } from '../../shared/count';
import { ChangeDetectionStrategy, Component, computed, inject } from '@angular/core';
import { MatIcon } from '@angular/material/icon';
import { RouterLink } from '@angular/router';
import { TranslocoDirective, TranslocoService } from '@jsverse/transloco';
import type { SystemInfo } from '@usher/contracts';
import { apiResource } from '../../core/api/api-resource';
import { AdminCounts } from '../../core/shell/admin-counts';
import { LocalDatePipe } from '../../shared/local-date';
import { ErrorState } from '../../shared/page-state';
import { UsersApi } from '../admin-users';

/** Members whose membership ends within this many days count as "expiring soon". */
export const EXPIRING_DAYS = 7;

/** One "needs attention" tile: a count, where to act on it, and whether it is an alarm. */
export interface AttentionTile {
  id: string;
  icon: string;
  count: number;
  link: string;
  query: Record<string, string>;
  /** `error` for things that failed, `warning` for work waiting; zero is always calm. */
  tone: 'error' | 'warning';
}

/** A local calendar day `YYYY-MM-DD`, `days` after `from`. */
export function dayAfter(from: Date, days: number): string {
  const date = new Date(from.getFullYear(), from.getMonth(), from.getDate() + days);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** The users-list query of members whose membership ends in the next `EXPIRING_DAYS` days. */
export function expiringQuery(today: Date) {
  return {
    status: 'active',
    expiresAfter: dayAfter(today, 0),
    expiresBefore: dayAfter(today, EXPIRING_DAYS),
    sort: 'expiresAt',
    order: 'asc',
  } as const;
}

/** The tiles of what needs attention, from system info and the expiring-members total. */
export function attentionTiles(
  info: SystemInfo,
  expiring: number | null,
  today: Date,
): AttentionTile[] {
  const failedJobs = info.jobs.filter((job) => job.lastRun?.status === 'failed').length;
  const tiles: AttentionTile[] = [
    {
      id: 'pendingRequests',
      icon: 'fact_check',
      count: info.requests.pending,
      link: '/admin/requests',
      query: { status: 'pending' },
      tone: 'warning',
    },
    {
      id: 'automationErrors',
      icon: 'error',
      count: info.requests.automationErrors,
      link: '/admin/requests',
      query: { automationError: 'true' },
      tone: 'error',
    },
    {
      id: 'failedJobs',
      icon: 'schedule',
      count: failedJobs,
      link: '/admin/jobs',
      query: {},
      tone: 'error',
    },
    {
      id: 'retryQueue',
      icon: 'sync',
      count: info.retryQueue.pending + info.retryQueue.gaveUp,
      link: '/admin/jobs',
      query: {},
      tone: info.retryQueue.gaveUp > 0 ? 'error' : 'warning',
    },
  ];
  if (expiring !== null) {
    tiles.splice(1, 0, {
      id: 'expiringSoon',
      icon: 'event_busy',
      count: expiring,
      link: '/admin/users',
      query: { ...expiringQuery(today) },
      tone: 'warning',
    });
  }
  if (info.settings.undecryptable > 0) {
    tiles.push({
      id: 'undecryptable',
      icon: 'lock_reset',
      count: info.settings.undecryptable,
      link: '/admin/settings',
      query: {},
      tone: 'error',
    });
  }
  return tiles;
}

/** Integration name in system info → the settings group that configures it. */
export const INTEGRATION_GROUPS: Record<keyof SystemInfo['integrations'], string> = {
  mediaServer: 'media_server',
  metadata: 'metadata',
  automation: 'automation',
  email: 'email',
  payments: 'payment',
  bot: 'messenger',
};

/**
 * `/admin/overview`, the admin landing (issue 14: "what now?"): what needs attention, each with
 * its count and a link to the filtered list that resolves it, the members expiring soon, failed
 * jobs, integrations still to set up, and the totals at a glance.
 */
@Component({
  selector: 'app-admin-overview',
  imports: [CountPipe, MatIcon, RouterLink, TranslocoDirective, LocalDatePipe, ErrorState],
  templateUrl: './admin-overview.html',
  styleUrl: './admin-overview.scss',
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export default class AdminOverview {
  private readonly counts = inject(AdminCounts);
  private readonly users = inject(UsersApi);
  private readonly transloco = inject(TranslocoService);
  private readonly today = new Date();

  protected readonly info = apiResource({ params: () => true, load: () => this.counts.fetch() });
  protected readonly expiring = apiResource({
    params: () => true,
    load: () =>
      this.users.list({
        search: '',
        role: '',
        isActive: '',
        mediaState: '',
        ...expiringQuery(this.today),
        page: 1,
        pageSize: 5,
      }),
  });
  protected readonly expiringQuery = expiringQuery(this.today);
  protected readonly expiringDays = EXPIRING_DAYS;
  protected readonly tiles = computed(() => {
    const info = this.info.value();
    if (!info) return null;
    return attentionTiles(info, this.expiring.value()?.total ?? null, this.today);
  });
  protected readonly allClear = computed(
    () => this.tiles()?.every((tile) => tile.count === 0) ?? false,
  );
  protected readonly failedJobs = computed(
    () => this.info.value()?.jobs.filter((job) => job.lastRun?.status === 'failed') ?? [],
  );
  protected readonly notConfigured = computed(() => {
    const integrations = this.info.value()?.integrations;
    if (!integrations) return [];
    return (Object.keys(INTEGRATION_GROUPS) as (keyof typeof INTEGRATION_GROUPS)[])
      .filter((name) => integrations[name] === 'not_configured')
      .map((name) => ({ name, group: INTEGRATION_GROUPS[name] }));
  });

  /** A job's translated name, or its API name for one this build does not know. */
  protected jobName(name: string): string {
    const key = `jobs.names.${name}.label`;
    const translation = this.transloco.getTranslation(this.transloco.getActiveLang());
    return typeof translation[key] === 'string' ? this.transloco.translate(key) : name;
  }
}
