import {
  ChangeDetectionStrategy,
  Component,
  computed,
  inject,
  input,
  linkedSignal,
  signal,
} from '@angular/core';
import { MatAnchor, MatIconButton } from '@angular/material/button';
import { MatIcon } from '@angular/material/icon';
import { RouterLink } from '@angular/router';
import { TranslocoDirective } from '@jsverse/transloco';
import type { MediaHomeState, MediaLatestItem, MediaResumeItem } from '@usher/contracts';
import { apiResource } from '../../core/api/api-resource';
import { MediaLinks } from '../../shared/media-link';
import { ErrorState } from '../../shared/page-state';
import { PosterCard } from '../../shared/poster-card/poster-card';
import { PosterRail, RAIL_POSTER_SIZES } from '../../shared/poster-card/poster-rail';
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

/** A duration as "1 h 21 min" / "35 min" (the translation key and its numbers). */
function durationText(seconds: number): { key: string; h: number; m: number } {
  const minutes = Math.max(1, Math.round(seconds / 60));
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return { key: h > 0 ? 'mediaHome.resume.hoursMinutes' : 'mediaHome.resume.minutes', h, m };
}

/**
 * A "continue watching" card: the show over "S1:E2 · 35 min left", or the film over "1 h 21 min
 * left"; "stopped at …" when the server does not know the runtime.
 */
export function resumeCard(item: MediaResumeItem) {
  const left =
    item.runtimeSeconds !== null && item.runtimeSeconds > item.positionSeconds
      ? item.runtimeSeconds - item.positionSeconds
      : null;
  const episode = item.season !== undefined && item.episode !== undefined;
  const what = left === null ? 'StoppedAt' : 'Left';
  return {
    title: item.seriesName ?? item.name,
    key: `mediaHome.resume.${episode ? 'episode' : 'movie'}${what}`,
    time: durationText(left ?? item.positionSeconds),
    season: item.season ?? 0,
    episode: item.episode ?? 0,
  };
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
  /** Where the member stopped (issue 36): shown only in the `ok` state and when there is any. */
  protected readonly resume = apiResource({
    params: () => this.tick(),
    load: () => this.api.resume(),
  });
  protected readonly continueItems = computed(() => {
    const reply = this.resume.value();
    return reply?.state === 'ok' ? reply.items : [];
  });
  /**
   * Whether the first "recently added" movie is the page's largest paint: once "continue
   * watching" settled with nothing to show above it (issue 36; public/boot.js preloads the same
   * poster). It stays so after a refresh, because a poster's image is never taken back out.
   */
  protected readonly movieLeads = linkedSignal<boolean, boolean>({
    source: () => !this.resume.loading() && this.continueItems().length === 0,
    computation: (leads, previous) => leads || (previous?.value ?? false),
  });
  protected readonly resumeCard = resumeCard;
  /** Each poster opens its item on the media server (issue 36). */
  protected readonly itemUrl = inject(MediaLinks).itemUrl;
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
   * Issue 36: the overview's largest paint — the first "continue watching" poster, else the first
   * "recently added" movie (`movieLeads`) — is fetched at once, at high priority (public/boot.js
   * preloads the same URL before Angular starts). Every other
   * poster is put in the page only near the screen (a rail's hidden cards included), and each is
   * asked for at the width its card shows.
   */
  protected readonly railSizes = RAIL_POSTER_SIZES;

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
