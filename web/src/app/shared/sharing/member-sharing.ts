import { ChangeDetectionStrategy, Component, computed, inject, input } from '@angular/core';
import { MatSlideToggle } from '@angular/material/slide-toggle';
import { TranslocoDirective, TranslocoService } from '@jsverse/transloco';
import type { SharingEvent, SharingMember } from '@usher/contracts';
import { apiResource } from '../../core/api/api-resource';
import { action } from '../action';
import { type Column, DATA_TABLE } from '../data-table';
import { FormError } from '../form-error';
import { LocalDatePipe } from '../local-date';
import { ErrorState } from '../page-state';
import { placeName, streamTimeColumns } from './places';
import { WorldMap } from './world-map';
import { SharingApi } from './sharing-api';
import { whenColumn } from '../data-table-columns';

type Stream = SharingMember['timeline'][number];

/**
 * A member's account-sharing picture for the user detail's Sharing tab (docs/sharing.md): the
 * trust score, stream limit, suspension and exempt switch, where they watched (places, networks,
 * devices), the streams' timeline and their events.
 */
@Component({
  selector: 'app-member-sharing',
  imports: [
    MatSlideToggle,
    TranslocoDirective,
    DATA_TABLE,
    ErrorState,
    FormError,
    LocalDatePipe,
    WorldMap,
  ],
  template: `
    <ng-container *transloco="let t">
      @if (member.error(); as error) {
        <app-error-state [error]="error" (retry)="member.reload()" />
      } @else if (member.value(); as m) {
        <section class="summary" data-testid="member-sharing">
          <div class="stat">
            <span class="value" data-testid="trust-score">{{ m.trustScore }}</span>
            <span class="caption">{{ t('sharing.member.trust') }}</span>
          </div>
          <div class="stat">
            <span class="value">{{ m.maxStreams }}</span>
            <span class="caption">{{ t('sharing.member.limit') }}</span>
          </div>
          <div class="stat">
            <span class="value">{{ m.networks.length }}</span>
            <span class="caption">{{ t('sharing.member.networks') }}</span>
          </div>
          <div class="stat">
            <span class="value">{{ m.devices.length }}</span>
            <span class="caption">{{ t('sharing.member.devices') }}</span>
          </div>
        </section>
        @if (m.suspendedUntil) {
          <p class="suspended" role="status">
            {{
              t('sharing.member.suspendedUntil', { at: m.suspendedUntil | localDate: 'dateTime' })
            }}
          </p>
        }
        <mat-slide-toggle
          [checked]="m.exempt"
          [disabled]="exempting.busy()"
          (change)="setExempt($event.checked)"
          data-testid="sharing-exempt"
        >
          {{ t('sharing.member.exempt') }}
        </mat-slide-toggle>
        <app-form-error [error]="exempting.error()" />
        <h3>{{ t('sharing.evidence.places') }}</h3>
        <ul class="chips">
          @for (place of places(); track place.name) {
            <li>
              {{ place.name }} <span class="muted">× {{ place.streams }}</span>
            </li>
          } @empty {
            <li class="muted">{{ t('sharing.evidence.noPlaces') }}</li>
          }
        </ul>
        @if (m.places.length) {
          @defer (on idle) {
            <app-world-map class="map" [places]="m.places" />
          } @placeholder {
            <div class="map map-space"></div>
          }
        }
        <h3>{{ t('sharing.evidence.networks') }}</h3>
        <ul class="chips mono">
          @for (n of m.networks; track n.network) {
            <li>
              {{ n.network === 'home' ? t('sharing.home') : n.network }}
              <span class="muted">× {{ n.streams }}</span>
            </li>
          }
        </ul>
        <h3>{{ t('sharing.evidence.timeline') }}</h3>
        <app-data-table
          [rows]="m.timeline"
          [columns]="timelineColumns"
          [emptyMessage]="t('sharing.member.noStreams')"
          tableTestId="member-timeline"
        />
        <h3>{{ t('sharing.member.events') }}</h3>
        <app-data-table
          [rows]="m.events"
          [columns]="eventColumns"
          [emptyMessage]="t('sharing.member.noEvents')"
          tableTestId="member-events"
        />
      } @else {
        <div class="skeleton" aria-busy="true" [attr.aria-label]="t('common.loading')"></div>
      }
    </ng-container>
  `,
  styles: `
    .map {
      margin: 8px 0 4px;
      max-width: 720px;
    }
    .map-space {
      aspect-ratio: 720 / 288;
    }
    .summary {
      display: grid;
      grid-template-columns: repeat(auto-fit, minmax(120px, 1fr));
      gap: 12px;
      margin-bottom: 16px;
    }
    .stat {
      display: flex;
      flex-direction: column;
      padding: 12px 16px;
      border-radius: 12px;
      background: var(--mat-sys-surface-container);
    }
    .value {
      font: var(--mat-sys-headline-small);
    }
    .caption,
    .muted {
      color: var(--mat-sys-on-surface-variant);
      font: var(--mat-sys-body-small);
    }
    h3 {
      margin: 20px 0 8px;
      font: var(--mat-sys-title-small);
    }
    .chips {
      display: flex;
      flex-wrap: wrap;
      gap: 8px;
      margin: 0;
      padding: 0;
      list-style: none;
    }
    .chips li {
      padding: 4px 10px;
      border-radius: 8px;
      background: var(--mat-sys-surface-container-high);
    }
    .mono {
      font-family: var(--app-mono-font, monospace);
    }
    .suspended {
      color: var(--mat-sys-error);
    }
    .skeleton {
      min-height: 160px;
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class MemberSharing {
  private readonly api = inject(SharingApi);
  private readonly transloco = inject(TranslocoService);
  readonly userId = input.required<string>();

  protected readonly member = apiResource({
    params: () => this.userId(),
    load: (id) => this.api.member(id),
  });
  protected readonly exempting = action();

  protected readonly places = computed(() => {
    const language = this.transloco.getActiveLang();
    return (this.member.value()?.places ?? []).map((p) => ({
      name: placeName(p, language),
      streams: p.streams,
    }));
  });

  protected readonly timelineColumns: readonly Column<Stream>[] = [
    { id: 'device', header: 'sharing.evidence.device', text: (s) => s.deviceName ?? s.deviceId },
    {
      id: 'place',
      header: 'sharing.evidence.place',
      text: (s) => (s.network === 'home' ? '' : placeName(s, this.transloco.getActiveLang())),
    },
    {
      id: 'network',
      header: 'sharing.evidence.network',
      cellClass: 'mono',
      text: (s) => s.network,
    },
    ...streamTimeColumns<Stream>(),
  ];

  protected readonly eventColumns: readonly Column<SharingEvent>[] = [
    whenColumn('at', 'sharing.col.detected', (e) => e.detectedAt),
    { id: 'rule', header: 'sharing.col.rule', key: (e) => `sharing.rules.${e.rule}` },
    { id: 'status', header: 'sharing.col.status', key: (e) => `sharing.status.${e.status}` },
    { id: 'note', header: 'sharing.col.note', text: (e) => e.note ?? '' },
  ];

  protected async setExempt(exempt: boolean): Promise<void> {
    await this.exempting.run(async () => {
      await this.api.setExempt(this.userId(), exempt);
      this.member.reload();
    });
  }
}
