import {
  ChangeDetectionStrategy,
  Component,
  type ElementRef,
  computed,
  effect,
  inject,
  input,
  signal,
  untracked,
  viewChild,
} from '@angular/core';
import { takeUntilDestroyed, toObservable } from '@angular/core/rxjs-interop';
import { MatButton, MatIconButton } from '@angular/material/button';
import { MatButtonToggle, MatButtonToggleGroup } from '@angular/material/button-toggle';
import { MatChipListbox, MatChipOption } from '@angular/material/chips';
import { MatDialog } from '@angular/material/dialog';
import { MatPrefix } from '@angular/material/form-field';
import { MatIcon } from '@angular/material/icon';
import { MatProgressBar } from '@angular/material/progress-bar';
import { Router, RouterLink } from '@angular/router';
import { TranslocoDirective } from '@jsverse/transloco';
import type {
  DiscoverRail,
  MetadataResult,
  TitleAvailability,
  RequestType,
  SettingGroup,
  TitleDetails,
} from '@usher/contracts';
import { debounceTime, distinctUntilChanged } from 'rxjs';
import { ApiError, errorSystem } from '../../core/api/api-error';
import { apiResource } from '../../core/api/api-resource';
import { ErrorTexts, type ErrorText } from '../../core/api/error-text';
import { settingsGroupFor } from '../../core/api/settings-group';
import { Notifier } from '../../core/notifier';
import { SessionStore } from '../../core/session/session-store';
import { SiteStore } from '../../core/site/site-store';
import { PosterImage } from '../../shared/requests/poster-image';
import { openRequestDialog } from '../../shared/requests/request-dialog';
import {
  AVAILABILITY_VIEW,
  type Availability,
  backdropUrl,
  parseRequestTab,
  posterUrl,
  resultAvailability,
  titleAvailability,
} from '../../shared/requests/request-status';
import { PosterBadgeView } from '../../shared/poster-card/poster-badge';
import { PosterCard } from '../../shared/poster-card/poster-card';
import { PosterRail } from '../../shared/poster-card/poster-rail';
import { TitleFacts } from './title-facts';
import { action } from '../../shared/action';
import { FormError } from '../../shared/form-error';
import { SubmitButton } from '../../shared/submit-button';
import { existingOf, summaryMessage } from './request-errors';
import { RequestsApi, type SearchType } from './requests-api';
import { TEXT_FIELD } from '../../shared/form-field';
import { ExpiredNote } from '../../shared/requests/expired-note';

/** `?type=` values of the toggle; the API calls "all" `multi`. */
const TYPES = { all: 'multi', movie: 'movie', tv: 'tv' } as const satisfies Record<
  string,
  SearchType
>;
type TypeFilter = keyof typeof TYPES;
const MIN_QUERY = 2;
const DEBOUNCE_MS = 350;
const MAX_NOTE = 500;

function resultKey(mediaType: 'movie' | 'tv', tmdbId: number): string {
  return `${mediaType}:${tmdbId}`;
}

/** Each discovery rail's heading key and icon (issue 36). */
const RAIL_VIEW: Record<DiscoverRail, { key: string; icon: string }> = {
  trending: { key: 'requests.discover.trending', icon: 'local_fire_department' },
  popular_movies: { key: 'requests.discover.popularMovies', icon: 'movie' },
  popular_tv: { key: 'requests.discover.popularTv', icon: 'tv' },
  upcoming: { key: 'requests.discover.upcoming', icon: 'event_upcoming' },
};
/** Posters of the first rail fetched at once: the first screenful's largest paint. */
const FIRST_SCREEN = 6;

/** `/console/requests/new?q=&type=` (60-web.md §4.2 "New request"). */
@Component({
  selector: 'app-new-request',
  imports: [
    ExpiredNote,
    MatButton,
    MatIconButton,
    MatButtonToggle,
    MatButtonToggleGroup,
    MatChipListbox,
    MatChipOption,
    MatPrefix,
    MatIcon,
    MatProgressBar,
    RouterLink,
    TranslocoDirective,
    PosterImage,
    PosterBadgeView,
    PosterCard,
    PosterRail,
    TitleFacts,
    FormError,
    SubmitButton,
    ...TEXT_FIELD,
  ],
  templateUrl: './new-request.html',
  styleUrl: './new-request.scss',
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export default class NewRequest {
  private readonly api = inject(RequestsApi);
  private readonly errors = inject(ErrorTexts);
  private readonly notifier = inject(Notifier);
  private readonly dialog = inject(MatDialog);
  private readonly router = inject(Router);
  private readonly session = inject(SessionStore);
  private readonly site = inject(SiteStore);

  readonly q = input<string | undefined>();
  readonly type = input<string | undefined>();

  protected readonly maxNote = MAX_NOTE;
  protected readonly query = signal('');
  protected readonly typeFilter = signal<TypeFilter>('all');
  protected readonly results = signal<MetadataResult[] | null>(null);
  protected readonly searching = signal(false);
  protected readonly searchError = signal<ErrorText | null>(null);
  /** The settings group to fix when search answers 503 NOT_CONFIGURED; null otherwise. */
  protected readonly notConfigured = signal<SettingGroup | null>(null);
  protected readonly isAdmin = computed(() => this.session.me()?.role === 'admin');
  protected readonly expired = computed(() => this.session.me()?.isExpired === true);

  protected readonly railView = RAIL_VIEW;
  protected readonly firstScreen = FIRST_SCREEN;
  /** Trending, popular and upcoming: what the page shows before any typing (issue 36). */
  protected readonly discover = apiResource({
    params: () => true,
    load: () => this.api.discover(),
  });
  /**
   * The settings group to fix when search, or discovery before any search, answers 503
   * NOT_CONFIGURED (TMDB has no key yet); null otherwise.
   */
  protected readonly notConfiguredGroup = computed<SettingGroup | null>(() => {
    const searched = this.notConfigured();
    if (searched) return searched;
    const failure = this.discover.failure();
    if (this.results() || this.searchError()) return null;
    if (!(failure instanceof ApiError) || failure.code !== 'NOT_CONFIGURED') return null;
    return settingsGroupFor(errorSystem(failure) ?? 'tmdb') ?? 'metadata';
  });

  protected readonly selected = signal<MetadataResult | null>(null);
  /** The picked title's sheet: details, cast and (a series) each season's status. */
  private readonly titleRead = apiResource({
    params: () => {
      const picked = this.selected();
      return picked ? { mediaType: picked.mediaType, tmdbId: picked.tmdbId } : undefined;
    },
    load: ({ mediaType, tmdbId }) => this.api.title(mediaType, tmdbId),
  });
  /** The details of the title picked now (the resource keeps the last one while it reloads). */
  protected readonly details = computed<TitleDetails | null>(() => {
    const picked = this.selected();
    const value = this.titleRead.value();
    return picked && value?.tmdbId === picked.tmdbId && value.mediaType === picked.mediaType
      ? value
      : null;
  });
  protected readonly detailsError = this.titleRead.error;
  protected readonly seasons = computed(() => this.details()?.seasons ?? null);
  protected readonly season = signal(0);
  protected readonly note = signal('');
  /** Check-existing then create; a second press meanwhile is ignored. */
  protected readonly submitting = action();
  /** The status tab of a request that already exists for the picked title. */
  protected readonly existingTab = signal<string | null>(null);
  private readonly sheet = viewChild<ElementRef<HTMLElement>>('sheet');
  /** Titles check-existing found in the library during this visit (beats the search's badge). */
  private readonly libraryHits = signal<ReadonlySet<string>>(new Set());
  /** The picked title's backdrop, behind the sheet's heading; null draws the plain header. */
  protected readonly backdrop = computed(() => {
    const picked = this.selected();
    return picked ? backdropUrl(this.site.site().tmdbImageBase, picked.backdropPath) : null;
  });
  protected readonly backdropFailed = signal(false);

  constructor() {
    effect(() => {
      const q = this.q() ?? '';
      const type = this.type();
      untracked(() => {
        if (q !== this.query()) this.query.set(q);
        this.typeFilter.set(type === 'movie' || type === 'tv' ? type : 'all');
      });
    });
    toObservable(computed(() => ({ query: this.query().trim(), type: this.typeFilter() })))
      .pipe(
        debounceTime(DEBOUNCE_MS),
        distinctUntilChanged((a, b) => a.query === b.query && a.type === b.type),
        takeUntilDestroyed(),
      )
      .subscribe(({ query, type }) => void this.search(query, type));
  }

  protected poster(result: Pick<MetadataResult, 'posterPath'>): string | null {
    return posterUrl(this.site.site().tmdbImageBase, result.posterPath);
  }

  /** Whether `result` is the title the sheet shows. */
  protected isPicked(result: MetadataResult): boolean {
    const picked = this.selected();
    return picked?.mediaType === result.mediaType && picked.tmdbId === result.tmdbId;
  }

  /**
   * The result's availability badge view, or null without one: the API's availability from every
   * member's requests (issue 14), or "In library" once check-existing found it this visit.
   */
  protected badgeOf(result: MetadataResult): (typeof AVAILABILITY_VIEW)[Availability] | null {
    const availability: Availability | null = this.libraryHits().has(
      resultKey(result.mediaType, result.tmdbId),
    )
      ? 'inLibrary'
      : resultAvailability(result);
    return availability ? AVAILABILITY_VIEW[availability] : null;
  }

  /** A season chip's status (in library, partly, requested…), or null for "nothing yet". */
  protected seasonBadge(state: TitleAvailability): (typeof AVAILABILITY_VIEW)[Availability] | null {
    const availability = titleAvailability(state);
    return availability ? AVAILABILITY_VIEW[availability] : null;
  }

  protected setQuery(event: Event): void {
    this.query.set((event.target as HTMLInputElement).value);
  }

  protected setType(type: TypeFilter): void {
    this.typeFilter.set(type);
  }

  protected setNote(event: Event): void {
    this.note.set((event.target as HTMLTextAreaElement).value.slice(0, MAX_NOTE));
  }

  protected pick(result: MetadataResult): void {
    this.selected.set(result);
    this.season.set(0);
    this.note.set('');
    this.submitting.clear();
    this.existingTab.set(null);
    this.backdropFailed.set(false);
    setTimeout(() => this.sheet()?.nativeElement.focus());
  }

  protected close(): void {
    this.selected.set(null);
  }

  /** check-existing first, then create; an existing title asks before "Submit anyway". */
  protected async submit(): Promise<void> {
    const picked = this.selected();
    if (!picked || this.expired()) return;
    const type: RequestType = picked.mediaType === 'tv' ? 'TV' : 'MOVIE';
    const season = type === 'TV' ? this.season() : 0;
    this.existingTab.set(null);
    await this.submitting.run(
      async () => {
        const check = await this.api.checkExisting(type, picked.tmdbId, season);
        if (check.activeRequest) {
          this.existingTab.set(parseRequestTab(check.activeRequest.status));
          return;
        }
        let confirmExisting = false;
        if (check.inLibrary) {
          this.markInLibrary(picked);
          if (!(await this.confirmExisting(picked, check.summary?.message))) return;
          confirmExisting = true;
        }
        await this.createOrAsk(picked, type, season, confirmExisting);
      },
      {
        handle: (error) => {
          if (!(error instanceof ApiError) || error.code !== 'REQUEST_EXISTS') return false;
          this.existingTab.set(parseRequestTab(existingOf(error.details)?.status));
          return true;
        },
      },
    );
  }

  private async create(
    picked: MetadataResult,
    type: RequestType,
    season: number,
    confirmExisting: boolean,
  ): Promise<void> {
    const note = this.note().trim();
    const reply = await this.api.create({
      type,
      tmdbId: picked.tmdbId,
      season,
      name: picked.title,
      year: picked.year,
      posterPath: picked.posterPath,
      // Kept with the request for the dialogs where it is the subject (issue 14).
      ...(picked.backdropPath ? { backdropPath: picked.backdropPath } : {}),
      ...(note ? { note } : {}),
      ...(confirmExisting ? { confirmExisting: true } : {}),
    });
    this.notifier.show(
      reply.outcome === 'auto_approved'
        ? 'requests.newRequest.autoApproved'
        : 'requests.newRequest.created',
      { name: picked.title },
    );
    await this.router.navigate(['/console/requests']);
  }

  /** Creates; when the library changed between the check and the create, asks now. */
  private async createOrAsk(
    picked: MetadataResult,
    type: RequestType,
    season: number,
    confirmExisting: boolean,
  ): Promise<void> {
    try {
      await this.create(picked, type, season, confirmExisting);
    } catch (error) {
      if (confirmExisting || !(error instanceof ApiError) || error.code !== 'ALREADY_IN_LIBRARY') {
        throw error;
      }
      this.markInLibrary(picked);
      if (!(await this.confirmExisting(picked, summaryMessage(error.details)))) return;
      await this.create(picked, type, season, true);
    }
  }

  private markInLibrary(picked: MetadataResult): void {
    this.libraryHits.update((hits) =>
      new Set(hits).add(resultKey(picked.mediaType, picked.tmdbId)),
    );
  }

  private async confirmExisting(
    picked: MetadataResult,
    detail: string | undefined,
  ): Promise<boolean> {
    const answer = await openRequestDialog(this.dialog, {
      titleKey: 'requests.existing.title',
      messageKey: 'requests.existing.message',
      ...(detail ? { detail } : {}),
      params: { name: picked.title },
      confirmKey: 'requests.existing.submitAnyway',
    });
    return answer === true;
  }

  private async search(query: string, type: TypeFilter): Promise<void> {
    void this.router.navigate([], {
      queryParams: { q: query || null, type: type === 'all' ? null : type },
      queryParamsHandling: 'merge',
      replaceUrl: true,
    });
    if (query.length < MIN_QUERY) {
      this.results.set(null);
      this.searchError.set(null);
      this.selected.set(null);
      return;
    }
    this.searching.set(true);
    this.searchError.set(null);
    this.notConfigured.set(null);
    try {
      const reply = await this.api.search(query, TYPES[type]);
      if (query === this.query().trim() && type === this.typeFilter()) {
        this.results.set(reply.data);
        // A sheet for a title the new search no longer lists would float over "no results"
        // (issue 14): it closes with its title gone.
        const picked = this.selected();
        const kept = reply.data.some(
          (r) => picked && r.mediaType === picked.mediaType && r.tmdbId === picked.tmdbId,
        );
        if (!kept) this.selected.set(null);
      }
    } catch (error) {
      if (error instanceof ApiError && error.code === 'NOT_CONFIGURED') {
        this.notConfigured.set(settingsGroupFor(errorSystem(error) ?? 'tmdb') ?? 'metadata');
      }
      this.searchError.set(this.errors.describe(error));
      this.results.set(null);
      this.selected.set(null);
    } finally {
      this.searching.set(false);
    }
  }
}
