import { ChangeDetectionStrategy, Component, computed, inject, input } from '@angular/core';
import { TranslocoService } from '@jsverse/transloco';
import { placeName } from './places';
import { WORLD_LAND } from './world-land';

/**
 * The map's frame, as `scripts/world-map.mjs` drew the land: equirectangular, 2 units a degree,
 * from 84° N to 60° S (nobody streams from Antarctica), 180° W at the left.
 */
export const MAP = { scale: 2, top: 84, bottom: -60, width: 720, height: 288 } as const;

export interface MapPlace {
  city: string | null;
  country: string | null;
  latitude: number;
  longitude: number;
}

/** Where a latitude and longitude land on the map (clamped to its frame). */
export function project(latitude: number, longitude: number): { x: number; y: number } {
  const lat = Math.min(MAP.top, Math.max(MAP.bottom, latitude));
  const lon = Math.min(180, Math.max(-180, longitude));
  return {
    x: Math.round((lon + 180) * MAP.scale * 10) / 10,
    y: Math.round((MAP.top - lat) * MAP.scale * 10) / 10,
  };
}

/**
 * The places of a sharing event on a world map (docs/sharing.md): Natural Earth's land outline
 * (bundled, public domain), a marker per place and, for travel, a line from the first place to
 * the second. An image to assistive technology, named by its places; the evidence lists the
 * same places as text next to it.
 */
@Component({
  selector: 'app-world-map',
  template: `
    <svg
      [attr.viewBox]="viewBox"
      role="img"
      [attr.aria-label]="label()"
      data-testid="world-map"
      preserveAspectRatio="xMidYMid meet"
    >
      <rect class="sea" [attr.width]="frame.width" [attr.height]="frame.height" />
      <path class="land" [attr.d]="land" />
      @if (route(); as r) {
        <line
          class="route"
          data-testid="map-route"
          [attr.x1]="r.from.x"
          [attr.y1]="r.from.y"
          [attr.x2]="r.to.x"
          [attr.y2]="r.to.y"
        />
      }
      @for (m of markers(); track $index) {
        <circle class="marker" data-testid="map-marker" [attr.cx]="m.x" [attr.cy]="m.y" r="7">
          <title>{{ m.name }}</title>
        </circle>
      }
    </svg>
  `,
  styles: `
    :host {
      display: block;
      max-width: 720px;
    }
    svg {
      display: block;
      width: 100%;
      height: auto;
      border-radius: 8px;
    }
    .sea {
      fill: var(--mat-sys-surface-container);
    }
    .land {
      fill: var(--mat-sys-outline-variant);
      stroke: none;
    }
    .route {
      stroke: var(--mat-sys-error);
      stroke-width: 3;
      stroke-dasharray: 8 6;
      stroke-linecap: round;
    }
    .marker {
      fill: var(--mat-sys-error);
      stroke: var(--mat-sys-surface);
      stroke-width: 3;
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class WorldMap {
  private readonly transloco = inject(TranslocoService);
  /** The places to mark, in the evidence's order. */
  readonly places = input.required<readonly MapPlace[]>();
  /** A travel event: joins the first place to the second. */
  readonly travel = input(false);

  protected readonly frame = MAP;
  protected readonly viewBox = `0 0 ${MAP.width} ${MAP.height}`;
  protected readonly land = WORLD_LAND;

  private readonly names = computed(() => {
    const language = this.transloco.getActiveLang();
    return this.places().map((p) => placeName(p, language));
  });

  protected readonly markers = computed(() =>
    this.places().map((p, i) => ({ ...project(p.latitude, p.longitude), name: this.names()[i] })),
  );

  protected readonly route = computed(() => {
    const [from, to] = this.markers();
    return this.travel() && from && to ? { from, to } : null;
  });

  protected readonly label = computed(() => {
    const names = this.names();
    if (this.route()) {
      return this.transloco.translate('sharing.evidence.mapTravel', {
        from: names[0],
        to: names[1],
      });
    }
    return this.transloco.translate('sharing.evidence.map', { places: names.join('; ') });
  });
}
