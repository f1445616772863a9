import { ChangeDetectionStrategy, Component, computed, inject, input } from '@angular/core';
import { RouterLink } from '@angular/router';
import { TranslocoDirective } from '@jsverse/transloco';
import type { UpcomingReminder } from '@usher/contracts';
import { apiResource } from '../../core/api/api-resource';
import { dateFormat } from '../../core/i18n/intl';
import { LanguageSwitch } from '../../core/i18n/language';
import { LocalDatePipe } from '../../shared/local-date';
import { CHANNEL_ICONS } from '../../shared/notices/notice-table';
import { EmptyState, ErrorState } from '../../shared/page-state';
import { StatusChip, type Tone } from '../../shared/status-chip';
import { LifecycleApi } from './lifecycle-api';

/** The window the timeline shows (the "next 14 days"). */
export const UPCOMING_DAYS = 14;
const DAY_MS = 86_400_000;

/** One day of the timeline: its reminders, soonest first. */
export interface TimelineDay {
  /** Local calendar day `YYYY-MM-DD`. */
  key: string;
  /** Days from today (0 = today). */
  offset: number;
  date: Date;
  items: UpcomingReminder[];
}

function localDay(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** Groups the reminders by the local day they are due on, keeping the API's order. */
export function groupByDay(items: readonly UpcomingReminder[], now: Date): TimelineDay[] {
  const today = new Date(now.getFullYear(), now.getMonth(), now.getDate()).getTime();
  const days = new Map<string, TimelineDay>();
  for (const item of items) {
    const due = new Date(item.dueAt);
    const key = localDay(due);
    let day = days.get(key);
    if (!day) {
      const start = new Date(due.getFullYear(), due.getMonth(), due.getDate());
      const offset = Math.max(0, Math.round((start.getTime() - today) / DAY_MS));
      day = { key, offset, date: start, items: [] };
      days.set(key, day);
    }
    day.items.push(item);
  }
  return [...days.values()];
}

/** Tones of a channel's outcome on the timeline. */
const CHANNEL_TONES: Record<string, Tone> = {
  pending: 'info',
  sending: 'info',
  sent: 'success',
  failed: 'error',
  skipped: 'neutral',
};

/**
 * The reminders of the next 14 days (`GET /admin/lifecycle/preview?days=14`): a day-by-day
 * timeline of who gets which reminder, when, and how each channel stands — pending, already
 * sent, or skipped with the reason the job would give (no address, not linked, opted out).
 */
@Component({
  selector: 'app-upcoming-timeline',
  imports: [RouterLink, TranslocoDirective, LocalDatePipe, EmptyState, ErrorState, StatusChip],
  template: `
    <ng-container *transloco="let t">
      @if (upcoming.error(); as error) {
        <app-error-state [error]="error" (retry)="upcoming.reload()" />
      } @else if (upcoming.value(); as page) {
        <p class="summary" data-testid="upcoming-summary">
          {{
            t(
              page.totalCapped ? 'lifecycle.upcoming.summaryCapped' : 'lifecycle.upcoming.summary',
              {
                n: page.total,
                members: members(),
                days: window,
              }
            )
          }}
        </p>
        @if (page.total === 0) {
          <app-empty-state icon="event_available" [message]="t('lifecycle.upcoming.empty')" />
        }
        <ol class="timeline" data-testid="upcoming-timeline">
          @for (day of days(); track day.key) {
            <li class="day" [attr.data-day]="day.key">
              <h3 class="day-head">
                <span class="when">{{ t('lifecycle.upcoming.inDays', { n: day.offset }) }}</span>
                <span class="date">{{ dayLabel(day.date) }}</span>
              </h3>
              <ul class="items">
                @for (item of day.items; track item.userId + '/' + item.days) {
                  <li class="item" data-testid="upcoming-item" [attr.data-user]="item.username">
                    <span class="avatar" aria-hidden="true">{{
                      item.username.slice(0, 1).toUpperCase()
                    }}</span>
                    <div class="what">
                      <a class="who" [routerLink]="['/admin/users', item.userId]">{{
                        item.username
                      }}</a>
                      <span class="line">
                        {{ t('lifecycle.upcoming.reminder', { n: item.days }) }} ·
                        {{ t('lifecycle.upcoming.ends', { date: item.expiresAt | localDate }) }}
                      </span>
                    </div>
                    <ul class="channels" [attr.aria-label]="t('lifecycle.upcoming.channels')">
                      @for (c of item.channels; track c.channel) {
                        <li
                          [attr.data-channel]="c.channel"
                          [attr.data-status]="c.status"
                          [attr.title]="c.detail"
                        >
                          <app-status-chip
                            [tone]="tone(c.status)"
                            [icon]="icon(c.channel)"
                            [label]="
                              t('notices.channel.' + c.channel) +
                              ': ' +
                              t('lifecycle.upcoming.status.' + c.status)
                            "
                          />
                          @if (c.detail) {
                            <span class="visually-hidden">({{ c.detail }})</span>
                          }
                        </li>
                      }
                    </ul>
                  </li>
                }
              </ul>
            </li>
          }
        </ol>
      } @else {
        <div class="skeleton" aria-busy="true"></div>
      }
    </ng-container>
  `,
  styleUrl: './upcoming-timeline.scss',
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class UpcomingTimeline {
  private readonly api = inject(LifecycleApi);
  private readonly language = inject(LanguageSwitch);
  /** False while the tab is hidden: nothing loads. */
  readonly active = input(true);
  protected readonly window = UPCOMING_DAYS;

  protected readonly upcoming = apiResource({
    params: () => (this.active() ? UPCOMING_DAYS : undefined),
    load: (days, abort) => this.api.upcoming(days, abort),
  });
  protected readonly days = computed(() =>
    groupByDay(this.upcoming.value()?.data ?? [], new Date()),
  );
  protected readonly members = computed(
    () => new Set((this.upcoming.value()?.data ?? []).map((item) => item.userId)).size,
  );

  protected dayLabel(date: Date): string {
    return dateFormat(this.language.active(), {
      weekday: 'short',
      month: 'short',
      day: 'numeric',
    }).format(date);
  }

  protected tone(status: string): Tone {
    return CHANNEL_TONES[status] ?? 'neutral';
  }

  protected icon(channel: string): string {
    return CHANNEL_ICONS[channel] ?? 'mail';
  }
}
