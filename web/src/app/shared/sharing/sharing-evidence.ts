import { ChangeDetectionStrategy, Component, computed, inject, input } from '@angular/core';
import { MatIcon } from '@angular/material/icon';
import { TranslocoDirective, TranslocoService } from '@jsverse/transloco';
import type { SharingEvidence, SharingSession } from '@usher/contracts';
import { type Column, DATA_TABLE } from '../data-table';
import { placeName, streamTimeColumns } from './places';
import { WorldMap } from './world-map';

/**
 * What made a sharing rule fire, readable at a glance (docs/sharing.md): the places (on a world
 * map and as city and country, DB-IP attribution), the networks and devices, and the streams as
 * a timeline — the offending ones marked. Used by `/admin/sharing` and the user detail's Sharing tab.
 */
@Component({
  selector: 'app-sharing-evidence',
  imports: [MatIcon, TranslocoDirective, DATA_TABLE, WorldMap],
  template: `
    <ng-container *transloco="let t">
      @if (evidence().places.length) {
        <!-- The outline (≈ 5 KB gzipped) loads in its own chunk, after the page. -->
        @defer (on idle) {
          <app-world-map class="map" [places]="evidence().places" [travel]="!!evidence().travel" />
        } @placeholder {
          <div class="map map-space"></div>
        }
      }
      <div class="facts">
        <section [attr.aria-label]="t('sharing.evidence.places')">
          <h3>
            <mat-icon aria-hidden="true" svgIcon="location_on" />{{ t('sharing.evidence.places') }}
          </h3>
          <ul data-testid="evidence-places">
            @for (place of places(); track place) {
              <li>{{ place }}</li>
            } @empty {
              <li class="none">{{ t('sharing.evidence.noPlaces') }}</li>
            }
          </ul>
        </section>
        <section [attr.aria-label]="t('sharing.evidence.networks')">
          <h3><mat-icon aria-hidden="true" svgIcon="lan" />{{ t('sharing.evidence.networks') }}</h3>
          <ul data-testid="evidence-networks">
            @for (network of evidence().networks; track network) {
              <li class="mono">{{ network === 'home' ? t('sharing.home') : network }}</li>
            }
          </ul>
        </section>
        <section [attr.aria-label]="t('sharing.evidence.devices')">
          <h3>
            <mat-icon aria-hidden="true" svgIcon="devices" />{{ t('sharing.evidence.devices') }}
          </h3>
          <ul data-testid="evidence-devices">
            @for (device of evidence().devices; track device.deviceId) {
              <li>
                {{ device.name ?? device.deviceId }}
                @if (device.client) {
                  <span class="muted">· {{ device.client }}</span>
                }
              </li>
            }
          </ul>
        </section>
      </div>
      @if (evidence().travel; as travel) {
        <p class="travel" data-testid="evidence-travel">
          {{
            t('sharing.evidence.travel', {
              km: travel.distanceKm,
              minutes: minutes(travel.hours),
              speed: travel.speedKmh,
            })
          }}
        </p>
      }
      <h3 class="timeline-heading">{{ t('sharing.evidence.timeline') }}</h3>
      <app-data-table
        [rows]="evidence().sessions"
        [columns]="columns"
        [caption]="t('sharing.evidence.timeline')"
        tableTestId="evidence-sessions"
        [rowAttrs]="rowAttrs"
        [trackBy]="bySession"
      >
        <ng-template appCell="device" [appCellOf]="evidence().sessions" let-row>
          {{ row.deviceName ?? row.deviceId }}
          @if (row.offending) {
            <span class="offending" data-testid="offending">{{
              t('sharing.evidence.offending')
            }}</span>
          }
        </ng-template>
      </app-data-table>
      <p class="attribution">
        <a href="https://db-ip.com" target="_blank" rel="noopener">{{
          t('sharing.evidence.attribution')
        }}</a>
      </p>
    </ng-container>
  `,
  styles: `
    .map {
      margin-bottom: 12px;
      max-width: 720px;
    }
    .map-space {
      aspect-ratio: 720 / 288;
    }
    .facts {
      display: grid;
      grid-template-columns: repeat(auto-fit, minmax(180px, 1fr));
      gap: 12px 24px;
    }
    h3 {
      display: flex;
      align-items: center;
      gap: 6px;
      margin: 0 0 4px;
      font: var(--mat-sys-title-small);
    }
    ul {
      margin: 0;
      padding-inline-start: 20px;
    }
    .mono {
      font-family: var(--app-mono-font, monospace);
      overflow-wrap: anywhere;
    }
    .muted,
    .none,
    .attribution {
      color: var(--mat-sys-on-surface-variant);
    }
    .timeline-heading {
      margin-top: 16px;
    }
    .travel {
      margin: 12px 0 0;
      font: var(--mat-sys-body-medium);
    }
    .offending {
      margin-inline-start: 6px;
      padding: 0 6px;
      border-radius: 8px;
      background: var(--mat-sys-error-container);
      color: var(--mat-sys-on-error-container);
      font: var(--mat-sys-label-small);
    }
    .attribution {
      font: var(--mat-sys-body-small);
      margin: 8px 0 0;
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class SharingEvidenceView {
  private readonly transloco = inject(TranslocoService);
  readonly evidence = input.required<SharingEvidence>();

  protected readonly places = computed(() => {
    const language = this.transloco.getActiveLang();
    return this.evidence().places.map((p) => placeName(p, language));
  });

  protected readonly columns: readonly Column<SharingSession>[] = [
    { id: 'device', header: 'sharing.evidence.device' },
    { id: 'place', header: 'sharing.evidence.place', text: (s) => this.placeOf(s) },
    {
      id: 'address',
      header: 'sharing.evidence.address',
      cellClass: 'mono',
      text: (s) => s.address,
    },
    ...streamTimeColumns<SharingSession>(),
  ];

  /** A session has no `id`: the table's default key would give every row the same one (NG0955). */
  protected readonly bySession = (s: SharingSession) => s.sessionId;

  protected readonly rowAttrs = (s: SharingSession) => ({
    'data-device': s.deviceId,
    'data-offending': s.offending ? 'true' : 'false',
  });

  private placeOf(s: SharingSession): string {
    return placeName(s, this.transloco.getActiveLang());
  }

  protected minutes(hours: number): number {
    return Math.round(hours * 60);
  }
}
