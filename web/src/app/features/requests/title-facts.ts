import { ChangeDetectionStrategy, Component, computed, inject, input, signal } from '@angular/core';
import { MatIcon } from '@angular/material/icon';
import { TranslocoDirective } from '@jsverse/transloco';
import type { TitleDetails } from '@usher/contracts';
import { SiteStore } from '../../core/site/site-store';
import { PosterImage } from '../../shared/requests/poster-image';
import { posterUrl } from '../../shared/requests/request-status';

/** How many billed actors the sheet shows. */
const CAST_SHOWN = 8;

/**
 * The title sheet's facts (issue 36, Seerr-like): the poster beside year, runtime, TMDB rating
 * and genres, then the cast with their portraits and roles. Pure display of `TitleDetails`.
 */
@Component({
  selector: 'app-title-facts',
  imports: [MatIcon, TranslocoDirective, PosterImage],
  template: `
    <ng-container *transloco="let t">
      @let d = details();
      <div class="facts">
        <app-poster-image
          class="poster"
          [src]="poster()"
          [fallbackIcon]="d.mediaType === 'tv' ? 'tv' : 'movie'"
        />
        <div class="meta">
          <p class="line" data-testid="title-meta">
            @if (d.year) {
              <span>{{ d.year }}</span>
            }
            @if (runtime(); as r) {
              <span>{{ t(r.key, r) }}</span>
            }
            @if (d.voteAverage > 0) {
              <span class="rating" [attr.aria-label]="t('requests.sheet.rating', { n: rating() })">
                <mat-icon aria-hidden="true" svgIcon="star" />{{ rating() }}
              </span>
            }
          </p>
          @if (d.genres.length > 0) {
            <ul class="genres" [attr.aria-label]="t('requests.sheet.genres')">
              @for (g of d.genres; track g) {
                <li>{{ g }}</li>
              }
            </ul>
          }
        </div>
      </div>
      @if (cast().length > 0) {
        <h3>{{ t('requests.sheet.cast') }}</h3>
        <ul class="cast" data-testid="title-cast">
          @for (c of cast(); track $index) {
            <li>
              @if (c.src && !failed().has($index)) {
                <img [src]="c.src" alt="" loading="lazy" decoding="async" (error)="fail($index)" />
              } @else {
                <span class="face"><mat-icon aria-hidden="true" svgIcon="person" /></span>
              }
              <span class="name" [attr.title]="c.name">{{ c.name }}</span>
              @if (c.character) {
                <span class="role" [attr.title]="c.character">{{ c.character }}</span>
              }
            </li>
          }
        </ul>
      }
    </ng-container>
  `,
  styles: `
    :host {
      display: flex;
      flex-direction: column;
      gap: 8px;
    }
    .facts {
      display: flex;
      gap: 16px;
      align-items: flex-start;
    }
    .poster {
      flex: none;
      width: 88px;
      box-shadow: var(--mat-sys-level2);
    }
    .meta {
      display: flex;
      flex-direction: column;
      gap: 8px;
      min-width: 0;
    }
    .line {
      display: flex;
      flex-wrap: wrap;
      gap: 4px 12px;
      margin: 0;
      font: var(--mat-sys-body-medium);
      color: var(--mat-sys-on-surface-variant);
    }
    .rating {
      display: inline-flex;
      align-items: center;
      gap: 2px;
      font-weight: 600;
      color: var(--mat-sys-on-surface);
      mat-icon {
        width: 16px;
        height: 16px;
        color: var(--usher-on-warning-container);
      }
    }
    .genres {
      display: flex;
      flex-wrap: wrap;
      gap: 6px;
      margin: 0;
      padding: 0;
      list-style: none;
      li {
        padding: 2px 10px;
        border-radius: 999px;
        border: 1px solid var(--mat-sys-outline-variant);
        font: var(--mat-sys-label-medium);
        white-space: nowrap;
      }
    }
    h3 {
      margin: 8px 0 0;
      font: var(--mat-sys-title-small);
    }
    .cast {
      display: grid;
      grid-auto-flow: column;
      grid-auto-columns: 76px;
      gap: 12px;
      margin: 0;
      padding: 4px 0 8px;
      list-style: none;
      overflow-x: auto;
      scrollbar-width: thin;
      li {
        display: flex;
        flex-direction: column;
        align-items: center;
        gap: 2px;
        min-width: 0;
        text-align: center;
      }
      img,
      .face {
        width: 64px;
        height: 64px;
        border-radius: 50%;
        object-fit: cover;
        background: var(--mat-sys-surface-container-highest);
      }
      .face {
        display: flex;
        align-items: center;
        justify-content: center;
        color: var(--mat-sys-on-surface-variant);
      }
      .name,
      .role {
        max-width: 100%;
        overflow: hidden;
        text-overflow: ellipsis;
        white-space: nowrap;
      }
      .name {
        font: var(--mat-sys-label-medium);
      }
      .role {
        font: var(--mat-sys-body-small);
        color: var(--mat-sys-on-surface-variant);
      }
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class TitleFacts {
  private readonly site = inject(SiteStore);
  readonly details = input.required<TitleDetails>();

  protected readonly poster = computed(() =>
    posterUrl(this.site.site().tmdbImageBase, this.details().posterPath, 'w185'),
  );
  /** TMDB's 0–10 average with one decimal. */
  protected readonly rating = computed(() => this.details().voteAverage.toFixed(1));
  /** "2 h 35 min", "48 min" (a series: one episode); null when TMDB has none. */
  protected readonly runtime = computed(() => {
    const minutes = this.details().runtime;
    if (!minutes) return null;
    const h = Math.floor(minutes / 60);
    const m = minutes % 60;
    return h > 0
      ? { key: 'requests.sheet.hoursMinutes', h, m }
      : { key: 'requests.sheet.minutes', m };
  });
  protected readonly cast = computed(() =>
    this.details()
      .cast.slice(0, CAST_SHOWN)
      .map((c) => ({
        ...c,
        src: posterUrl(this.site.site().tmdbImageBase, c.profilePath, 'w185'),
      })),
  );
  protected readonly failed = signal<ReadonlySet<number>>(new Set());

  protected fail(index: number): void {
    this.failed.update((set) => new Set(set).add(index));
  }
}
