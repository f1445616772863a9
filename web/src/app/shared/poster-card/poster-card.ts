import { ChangeDetectionStrategy, Component, input } from '@angular/core';
import { PosterImage } from '../requests/poster-image';
import { type PosterBadge, PosterBadgeView } from './poster-badge';

export type { PosterBadge } from './poster-badge';

/**
 * A poster-first card (issue 14, Seerr-like): the 2:3 poster, an optional badge over its corner,
 * the title and a subtitle (year, "S01E02", …). `loading` draws the same shape as a skeleton, so a
 * rail or grid keeps its size while the data arrives. The poster URL goes straight into
 * `<img src>`: TMDB images, or the API's signed `/api/v1/media/posters/…` URLs, which are
 * same-origin (nginx proxies `/api/v1`) and so need no prefix and no bearer token. Any image
 * failure (every poster refusal is a 404) shows the placeholder art of `PosterImage`.
 */
@Component({
  selector: 'app-poster-card',
  imports: [PosterImage, PosterBadgeView],
  template: `
    @if (loading()) {
      <div class="poster skeleton" aria-hidden="true"></div>
      <div class="line skeleton" aria-hidden="true"></div>
      <div class="line second skeleton" aria-hidden="true"></div>
      <div class="line short skeleton" aria-hidden="true"></div>
    } @else {
      <div class="poster">
        <app-poster-image
          [src]="src()"
          [alt]="alt()"
          [fallbackIcon]="fallbackIcon()"
          [priority]="priority()"
          [sizes]="sizes()"
          [deferUntilNear]="deferUntilNear()"
        />
        @if (badge(); as shown) {
          <app-poster-badge [badge]="shown" />
        }
        @if (progress() !== null) {
          <!-- How far in (continue watching); the subtitle says it in words. -->
          <div class="progress" aria-hidden="true" data-testid="poster-progress">
            <span [style.width.%]="progress()"></span>
          </div>
        }
      </div>
      <p class="title" [attr.title]="title()">{{ title() }}</p>
      @if (subtitle()) {
        <p class="subtitle">{{ subtitle() }}</p>
      }
    }
  `,
  styleUrl: './poster-card.scss',
  host: { '[class.is-loading]': 'loading()', '[attr.aria-busy]': 'loading() || null' },
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class PosterCard {
  readonly title = input('');
  readonly subtitle = input<string | null>(null);
  readonly src = input<string | null>(null);
  /** The image's alt text; empty by default because the title is printed under it. */
  readonly alt = input('');
  readonly fallbackIcon = input('movie');
  readonly badge = input<PosterBadge | null>(null);
  readonly loading = input(false);
  /** The poster is the page's largest paint: fetched at once, first (see `PosterImage`). */
  readonly priority = input(false);
  /** The poster's displayed width, as `<img sizes>`: the API's poster proxy is asked for it. */
  readonly sizes = input<string | null>(null);
  /** Put the poster in the page only near the screen (in a rail; see `PosterImage`). */
  readonly deferUntilNear = input(false);
  /** 0–100: a bar along the poster's foot, how far the viewer got ("continue watching"). */
  readonly progress = input<number | null>(null);
}
