import { ChangeDetectionStrategy, Component, computed, inject, input } from '@angular/core';
import { MatButton } from '@angular/material/button';
import { MatIcon } from '@angular/material/icon';
import { MatTooltip } from '@angular/material/tooltip';
import { TranslocoDirective } from '@jsverse/transloco';
import type { AdminMediaRequest, MediaRequest } from '@usher/contracts';
import { SiteStore } from '../../core/site/site-store';
import { LocalDatePipe } from '../local-date';
import { StatusChip } from '../status-chip';
import { PosterBadgeView } from '../poster-card/poster-badge';
import { PosterImage } from './poster-image';
import {
  AVAILABILITY_VIEW,
  REQUEST_STATUS_VIEW,
  posterUrl,
  requestAvailability,
  seasonText,
} from './request-status';

/** A button on a request card. */
export interface RequestAction {
  /** `data-testid` of the button, unique on the card. */
  testId: string;
  /** Translation key of the label. */
  label: string;
  appearance?: 'filled' | 'outlined' | 'text';
  disabled?: boolean;
  /** Translation key of a tooltip saying why it is disabled. */
  tooltip?: string;
  run: () => void;
}

/**
 * One request as a poster card (60-web.md §4.2 "My requests", §4.3 "Request review"): title,
 * kind, season, status chip, dates, reject reason, ingest progress; the admin fields when the
 * request carries them. The page says which actions a request offers (`actions`); while one of
 * them runs (`busy`) none can be pressed.
 */
@Component({
  selector: 'app-request-card',
  imports: [
    MatButton,
    MatIcon,
    MatTooltip,
    TranslocoDirective,
    LocalDatePipe,
    StatusChip,
    PosterImage,
    PosterBadgeView,
  ],
  template: `
    <article *transloco="let t" class="card" [attr.data-testid]="'request-' + request().id">
      <div class="poster">
        <app-poster-image
          [src]="poster()"
          [fallbackIcon]="request().type === 'TV' ? 'tv' : 'movie'"
        />
        @if (availability(); as a) {
          <app-poster-badge [badge]="{ tone: a.tone, icon: a.icon, label: t(a.key) }" />
        }
      </div>
      <div class="body">
        <h3 class="title">
          <mat-icon
            [attr.aria-label]="
              t(request().type === 'TV' ? 'requests.card.tv' : 'requests.card.movie')
            "
            [svgIcon]="request().type === 'TV' ? 'tv' : 'movie'"
          />
          <span>{{ request().name }}</span>
          @if (request().year) {
            <span class="year">({{ request().year }})</span>
          }
        </h3>
        @if (season(); as season) {
          <p class="season">{{ t(season.key, { season: season.season }) }}</p>
        }
        <app-status-chip
          data-testid="request-status"
          [tone]="status().tone"
          [icon]="status().icon"
          [label]="t(status().key)"
        />
        <p class="meta">
          {{ t('requests.card.created', { date: (request().createdAt | localDate) }) }}
        </p>
        @if (admin(); as admin) {
          <p class="meta" data-testid="request-requester">
            <mat-icon aria-hidden="true" svgIcon="person" />{{ admin.requester.username }}
          </p>
          @if (admin.automation.error) {
            <p class="chip error" data-testid="automation-error">
              <mat-icon aria-hidden="true" svgIcon="error" />
              {{ t('adminRequests.automationError', { error: admin.automation.error }) }}
            </p>
          } @else if (admin.automation.dispatchedAt) {
            <p class="chip">
              <mat-icon aria-hidden="true" svgIcon="send" />
              {{
                t('adminRequests.dispatchedAt', {
                  date: (admin.automation.dispatchedAt | localDate: 'dateTime'),
                })
              }}
            </p>
          }
        }
        @if (request().note) {
          <p class="note">{{ t('requests.card.note', { note: request().note }) }}</p>
        }
        @if (request().rejectReason) {
          <p class="chip error" data-testid="reject-reason">
            {{ t('requests.card.rejectReason', { reason: request().rejectReason }) }}
          </p>
        }
        @if (request().reviewedAt) {
          <p class="meta">
            {{
              t(request().reviewer ? 'requests.card.reviewedBy' : 'requests.card.reviewed', {
                date: (request().reviewedAt | localDate: 'dateTime'),
                by: request().reviewer?.username ?? '',
              })
            }}
          </p>
        }
        @if (request().ingestProgress; as progress) {
          <p class="chip" data-testid="ingest-progress">
            {{ t('requests.card.progress', { have: progress.have, total: progress.total }) }}
          </p>
        }
        <div class="actions">
          @for (action of actions(); track action.testId) {
            <span [matTooltip]="action.tooltip ? t(action.tooltip) : ''">
              <button
                [matButton]="action.appearance ?? 'outlined'"
                type="button"
                (click)="action.run()"
                [disabled]="busy() || action.disabled"
                [attr.data-testid]="action.testId"
              >
                {{ t(action.label) }}
              </button>
            </span>
          }
        </div>
      </div>
    </article>
  `,
  styles: `
    :host {
      display: block;
    }
    .card {
      display: grid;
      grid-template-columns: 96px 1fr;
      gap: 12px;
      height: 100%;
      padding: 12px;
      border: 1px solid var(--mat-sys-outline-variant);
      border-radius: 12px;
      background: var(--mat-sys-surface-container-low);
      box-sizing: border-box;
    }
    .poster {
      position: relative;
      align-self: start;
    }
    .body {
      display: flex;
      flex-direction: column;
      align-items: flex-start;
      gap: 6px;
      min-width: 0;
    }
    .title {
      display: flex;
      align-items: center;
      gap: 6px;
      margin: 0;
      font: var(--mat-sys-title-medium);
      overflow-wrap: anywhere;
    }
    .year,
    .meta,
    .season,
    .note {
      margin: 0;
      color: var(--mat-sys-on-surface-variant);
      font: var(--mat-sys-body-medium);
      overflow-wrap: anywhere;
    }
    .meta {
      display: flex;
      align-items: center;
      gap: 4px;
    }
    .meta mat-icon,
    .chip mat-icon {
      font-size: 18px;
      width: 18px;
      height: 18px;
    }
    .chip {
      display: inline-flex;
      align-items: center;
      gap: 4px;
      margin: 0;
      padding: 2px 8px;
      border-radius: 8px;
      background: var(--mat-sys-surface-container-highest);
      font: var(--mat-sys-label-large);
      overflow-wrap: anywhere;
    }
    .chip.error {
      background: var(--mat-sys-error-container);
      color: var(--mat-sys-on-error-container);
    }
    .actions {
      display: flex;
      flex-wrap: wrap;
      gap: 8px;
      margin-top: auto;
      padding-top: 4px;
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class RequestCard {
  private readonly site = inject(SiteStore);
  readonly request = input.required<MediaRequest | AdminMediaRequest>();
  readonly actions = input<readonly RequestAction[]>([]);
  /** An action on this request is running. */
  readonly busy = input(false);

  protected readonly status = computed(() => REQUEST_STATUS_VIEW[this.request().status]);
  protected readonly season = computed(() => seasonText(this.request()));
  /** The poster's availability badge (issue 14); none for a rejected request. */
  protected readonly availability = computed(() => {
    const availability = requestAvailability(this.request());
    return availability ? AVAILABILITY_VIEW[availability] : null;
  });
  protected readonly poster = computed(() =>
    posterUrl(this.site.site().tmdbImageBase, this.request().posterPath),
  );
  protected readonly admin = computed(() => {
    const request = this.request();
    return 'requester' in request ? request : null;
  });
}
