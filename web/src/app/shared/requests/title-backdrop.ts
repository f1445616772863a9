import { ChangeDetectionStrategy, Component, computed, inject, input, signal } from '@angular/core';
import { SiteStore } from '../../core/site/site-store';
import { PosterImage } from './poster-image';
import { backdropUrl, posterUrl } from './request-status';

/** The art of the title a dialog is about: TMDB paths as the request stored them. */
export interface TitleArt {
  backdropPath?: string | null;
  posterPath: string | null;
  type: 'MOVIE' | 'TV';
}

/**
 * The wide backdrop band at the top of a view about one title (issue 14: the request dialogs of
 * both request pages), with the poster standing on its lower edge, poster first. The band's box
 * has a fixed ratio, so nothing moves when the image arrives; without a backdrop, or when it
 * fails, nothing is drawn and the dialog keeps its plain heading.
 */
@Component({
  selector: 'app-title-backdrop',
  imports: [PosterImage],
  template: `
    @if (backdrop(); as src) {
      @if (!failed()) {
        <div class="band" data-testid="title-backdrop">
          <img [src]="src" alt="" decoding="async" (error)="failed.set(true)" />
        </div>
        <app-poster-image
          class="poster"
          [src]="poster()"
          [fallbackIcon]="art().type === 'TV' ? 'tv' : 'movie'"
        />
      }
    }
  `,
  styles: `
    :host {
      position: relative;
      display: block;
    }
    .band {
      position: relative;
      aspect-ratio: 16 / 5;
      overflow: hidden;
      background: var(--mat-sys-surface-container-highest);
      &::after {
        content: '';
        position: absolute;
        inset: 0;
        background: linear-gradient(to top, rgb(0 0 0 / 45%), rgb(0 0 0 / 0%) 60%);
      }
    }
    img {
      display: block;
      width: 100%;
      height: 100%;
      object-fit: cover;
    }
    .poster {
      position: absolute;
      left: 24px;
      bottom: 0;
      width: clamp(56px, 14%, 88px);
      box-shadow: var(--mat-sys-level2);
    }
    /* Room for the poster's foot below the band: the poster ends where the host does, so the
       heading never runs under it. */
    :host:has(.band) {
      padding-bottom: 40px;
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class TitleBackdrop {
  private readonly site = inject(SiteStore);
  readonly art = input.required<TitleArt>();
  protected readonly failed = signal(false);
  protected readonly backdrop = computed(() =>
    backdropUrl(this.site.site().tmdbImageBase, this.art().backdropPath),
  );
  protected readonly poster = computed(() =>
    posterUrl(this.site.site().tmdbImageBase, this.art().posterPath),
  );
}
