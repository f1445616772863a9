import { ChangeDetectionStrategy, Component, computed, inject } from '@angular/core';
import { MatCard, MatCardContent, MatCardHeader, MatCardTitle } from '@angular/material/card';
import { TranslocoDirective, TranslocoService } from '@jsverse/transloco';
import { apiResource } from '../../core/api/api-resource';
import { LocalDatePipe } from '../../shared/local-date';
import { placeName } from '../../shared/sharing/places';
import { SharingApi } from '../../shared/sharing/sharing-api';

/**
 * The member's own live streams and their limit (docs/sharing.md), so an honest member sees
 * where their account plays and why a stream was stopped. Shown only while the sharing watch is
 * on; a failed read hides the card (the overview has more important things to say).
 */
@Component({
  selector: 'app-my-streams',
  imports: [
    MatCard,
    MatCardContent,
    MatCardHeader,
    MatCardTitle,
    TranslocoDirective,
    LocalDatePipe,
  ],
  template: `
    <ng-container *transloco="let t">
      @if (streams.value(); as s) {
        @if (s.enabled) {
          <mat-card appearance="outlined" data-testid="my-streams">
            <mat-card-header>
              <mat-card-title
                ><h2>{{ t('sharing.mine.title') }}</h2></mat-card-title
              >
            </mat-card-header>
            <mat-card-content>
              <p class="limit">
                {{ t('sharing.mine.limit', { n: s.streams.length, limit: s.limit }) }}
              </p>
              @if (s.suspendedUntil) {
                <p class="suspended" role="status">
                  {{
                    t('sharing.mine.suspended', { at: s.suspendedUntil | localDate: 'dateTime' })
                  }}
                </p>
              }
              <ul class="streams">
                @for (stream of s.streams; track $index) {
                  <li>
                    <strong>{{ stream.deviceName ?? stream.client ?? '—' }}</strong>
                    @if (stream.itemName) {
                      · {{ stream.itemName }}
                    }
                    <span class="where">{{ stream.home ? t('sharing.home') : place(stream) }}</span>
                  </li>
                } @empty {
                  <li class="where">{{ t('sharing.mine.none') }}</li>
                }
              </ul>
              @if (latest(); as event) {
                <p class="where" data-testid="my-streams-latest">
                  {{
                    t('sharing.mine.latest', {
                      rule: t('sharing.rules.' + event.rule),
                      at: event.detectedAt | localDate: 'dateTime',
                    })
                  }}
                </p>
              }
            </mat-card-content>
          </mat-card>
        }
      }
    </ng-container>
  `,
  styles: `
    .limit {
      margin: 0 0 8px;
    }
    .streams {
      margin: 0;
      padding-inline-start: 20px;
    }
    .where {
      display: block;
      color: var(--mat-sys-on-surface-variant);
      font: var(--mat-sys-body-small);
    }
    .suspended {
      color: var(--mat-sys-error);
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class MyStreams {
  private readonly api = inject(SharingApi);
  private readonly transloco = inject(TranslocoService);
  protected readonly streams = apiResource({
    params: () => true,
    load: () => this.api.myStreams(),
  });
  protected readonly latest = computed(() => this.streams.value()?.recent[0] ?? null);

  protected place(stream: { city: string | null; country: string | null }): string {
    return placeName(stream, this.transloco.getActiveLang());
  }
}
