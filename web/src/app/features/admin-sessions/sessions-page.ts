import { ChangeDetectionStrategy, Component, computed, inject, signal } from '@angular/core';
import { MatAnchor, MatButton, MatIconButton } from '@angular/material/button';
import { MatIcon } from '@angular/material/icon';
import { MatProgressBar } from '@angular/material/progress-bar';
import { MatTooltip } from '@angular/material/tooltip';
import { RouterLink } from '@angular/router';
import { TranslocoDirective } from '@jsverse/transloco';
import type { Session, SessionList } from '@usher/contracts';
import { ApiError } from '../../core/api/api-error';
import { ErrorTexts, type ErrorText } from '../../core/api/error-text';
import { LanguageSwitch } from '../../core/i18n/language';
import { livePoll } from '../../shared/live-poll';
import { LocalDatePipe } from '../../shared/local-date';
import { EmptyState, ErrorState } from '../../shared/page-state';
import { PosterImage } from '../../shared/requests/poster-image';
import { StatusChip } from '../../shared/status-chip';
import { PLAY_METHOD_CHIPS, bitrate, clock, liveStreams, titleLines } from './session-view';
import { SessionsApi } from './sessions-api';

/** How often the list is read while the tab is visible (60-web.md §4.3 "Live sessions"). */
export const POLL_MS = 10_000;

/**
 * `/admin/sessions`: who is streaming now, read from `GET /admin/sessions` every 10 s while the
 * tab is visible (`visibilitychange` stops and resumes it), with a pause toggle and a manual
 * refresh. Playing sessions are poster cards (title, S01E02, progress, paused, play method with
 * the transcode bitrate, client, device, address, the member); connected-but-idle ones follow
 * in a short list.
 */
@Component({
  selector: 'app-sessions-page',
  imports: [
    MatAnchor,
    MatButton,
    MatIconButton,
    MatIcon,
    MatProgressBar,
    MatTooltip,
    RouterLink,
    TranslocoDirective,
    LocalDatePipe,
    EmptyState,
    ErrorState,
    PosterImage,
    StatusChip,
  ],
  templateUrl: './sessions-page.html',
  styleUrl: './sessions-page.scss',
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export default class SessionsPage {
  private readonly api = inject(SessionsApi);
  private readonly errors = inject(ErrorTexts);
  private readonly language = inject(LanguageSwitch);

  protected readonly list = signal<SessionList | null>(null);
  protected readonly error = signal<ErrorText | null>(null);
  protected readonly notConfigured = signal(false);
  protected readonly loading = signal(false);
  /** Read now and every 10 s while the tab is visible and not paused. */
  private readonly poll = livePoll(() => this.refresh(), POLL_MS);
  /** The admin's pause toggle. */
  protected readonly paused = this.poll.paused;
  /** Whether the page is polling now. */
  protected readonly live = this.poll.live;
  private readonly streams = computed(() => liveStreams(this.list()));
  protected readonly playing = computed(() => this.streams().playing);
  protected readonly idle = computed(() =>
    (this.list()?.data ?? []).filter((s) => s.nowPlaying === null),
  );
  protected readonly transcoding = computed(() => this.streams().transcoding);
  protected readonly methods = PLAY_METHOD_CHIPS;
  protected readonly titleLines = titleLines;
  protected readonly clock = clock;

  protected bitrate(bps: number): string {
    return bitrate(bps, this.language.active());
  }

  protected togglePause(): void {
    this.poll.setPaused(!this.paused());
  }

  async refresh(): Promise<void> {
    if (this.loading()) return;
    this.loading.set(true);
    try {
      this.list.set(await this.api.list());
      this.error.set(null);
      this.notConfigured.set(false);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'NOT_CONFIGURED') {
        this.notConfigured.set(true);
        this.poll.stop();
      } else {
        this.error.set(this.errors.describe(error));
      }
    } finally {
      this.loading.set(false);
    }
  }

  protected progressLabel(s: Session): string | null {
    const runtime = s.nowPlaying?.runtimeSeconds;
    if (!s.playState) return null;
    const position = clock(s.playState.positionSeconds);
    return runtime ? `${position} / ${clock(runtime)}` : position;
  }
}
