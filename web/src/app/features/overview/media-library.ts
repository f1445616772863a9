import { ChangeDetectionStrategy, Component, computed, inject, input, signal } from '@angular/core';
import { MatAnchor, MatIconButton } from '@angular/material/button';
import { MatIcon } from '@angular/material/icon';
import { RouterLink } from '@angular/router';
import { TranslocoDirective } from '@jsverse/transloco';
import type { MediaHomeState, MediaLatestItem } from '@usher/contracts';
import { apiResource } from '../../core/api/api-resource';
import { ErrorState } from '../../shared/page-state';
import { PosterCard } from '../../shared/poster-card/poster-card';
import { PosterRail } from '../../shared/poster-card/poster-rail';
import { type LatestType, MediaHomeApi } from './media-home-api';

/** How each non-ok state of `GET /media/latest` is told, instead of an empty rail. */
const STATE_VIEW: Record<Exclude<MediaHomeState, 'ok'>, { icon: string; key: string }> = {
  not_configured: { icon: 'cloud_off', key: 'mediaHome.state.not_configured' },
  unlinked: { icon: 'link_off', key: 'mediaHome.state.unlinked' },
  expired: { icon: 'pause_circle', key: 'mediaHome.state.expired' },
  disabled: { icon: 'block', key: 'mediaHome.state.disabled' },
};

/** The rail's two title lines: a show's name over its episode, or a film over its year. */
export function cardLines(item: MediaLatestItem): { title: string; subtitle: string | null } {
  if (item.seriesName) return { title: item.seriesName, subtitle: item.name };
  return { title: item.name, subtitle: item.year === null ? null : String(item.year) };
}

/**
 * The overview's library band (60-web.md §4.2): library counts from `GET /media/stats` (hidden
 * when no media server is configured) and the "recently added" poster rails for movies and
 * series from `GET /media/latest`. When the member's media account cannot show them (not set
 * up, not linked, expired, switched off) one sentence says why instead of empty rails.
 */
@Component({
  selector: 'app-media-library',
  imports: [
    MatAnchor,
    MatIconButton,
    MatIcon,
    RouterLink,
    TranslocoDirective,
    ErrorState,
    PosterCard,
    PosterRail,
  ],
  templateUrl: './media-library.html',
  styleUrl: './media-library.scss',
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class MediaLibrary {
  private readonly api = inject(MediaHomeApi);
  /** Whether the viewer is an admin (the not-configured message links to the settings). */
  readonly admin = input(false);
  /** Bumped by Refresh: every read loads again. */
  private readonly tick = signal(0);

  protected readonly stats = apiResource({
    params: () => this.tick(),
    load: () => this.api.stats(),
  });
  protected readonly movies = this.latest('movie');
  protected readonly series = this.latest('series');
  protected readonly rails = [
    {
      type: 'movie' as const,
      data: this.movies,
      key: 'mediaHome.recent.movies',
      heading: 'mediaHome.recent.moviesHeading',
      icon: 'movie',
    },
    {
      type: 'series' as const,
      data: this.series,
      key: 'mediaHome.recent.series',
      heading: 'mediaHome.recent.seriesHeading',
      icon: 'tv',
    },
  ];

  /** The member's media state: both replies carry the same one. */
  protected readonly state = computed<MediaHomeState | null>(
    () => this.movies.value()?.state ?? this.series.value()?.state ?? null,
  );
  protected readonly stateView = computed(() => {
    const state = this.state();
    return state && state !== 'ok' ? STATE_VIEW[state] : null;
  });
  protected readonly cardLines = cardLines;
  /**
   * Posters per rail a phone's first screen can show (140 px cards, issue 14): fetched at once,
   * as the overview's largest paint, rather than lazily after layout.
   */
  protected readonly firstScreen = 3;

  private latest(type: LatestType) {
    return apiResource({
      params: () => ({ type, tick: this.tick() }),
      load: ({ type }) => this.api.latest(type),
    });
  }

  refresh(): void {
    this.tick.update((n) => n + 1);
  }
}
