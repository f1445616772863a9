import { ChangeDetectionStrategy, Component, input } from '@angular/core';
import { TranslocoDirective } from '@jsverse/transloco';
import type { Session } from '@usher/contracts';
import { PosterImage } from '../../shared/requests/poster-image';
import { StatusChip } from '../../shared/status-chip';
import { PLAY_METHOD_CHIPS, titleLines } from '../admin-sessions';

/**
 * The dashboard's "Now playing" (issue 36): one compact card a stream — poster, title, the
 * member and app, progress, and the play method as a chip (a transcode stands out in amber).
 */
@Component({
  selector: 'app-now-playing',
  imports: [PosterImage, StatusChip, TranslocoDirective],
  template: `
    <ul data-testid="now-playing" *transloco="let t">
      @for (s of sessions(); track s.id) {
        @let np = s.nowPlaying!;
        @let lines = titleLines(np);
        @let method = methods[s.playState?.playMethod ?? 'unknown'];
        <li>
          <app-poster-image
            class="thumb"
            [src]="np.posterUrl ?? null"
            [fallbackIcon]="np.seriesName ? 'tv' : 'movie'"
          />
          <div class="text">
            <span class="title" [attr.title]="lines.title">{{ lines.title }}</span>
            @if (lines.subtitle) {
              <span class="muted" [attr.title]="lines.subtitle">{{ lines.subtitle }}</span>
            }
            <span class="muted">{{ s.user.username ?? s.user.name }} · {{ s.client }}</span>
            @if (s.playState?.progress; as progress) {
              <span class="progress" aria-hidden="true"
                ><span [style.width.%]="progress * 100"></span
              ></span>
            }
          </div>
          <app-status-chip [tone]="method.tone" [icon]="method.icon" [label]="t(method.key)" />
        </li>
      }
    </ul>
  `,
  styles: `
    ul {
      display: grid;
      grid-template-columns: repeat(auto-fill, minmax(280px, 1fr));
      gap: 12px;
      margin: 0;
      padding: 0;
      list-style: none;
    }
    li {
      display: grid;
      grid-template-columns: 48px minmax(0, 1fr);
      gap: 4px 12px;
      align-items: start;
      padding: 8px;
      border-radius: 12px;
      background: var(--mat-sys-surface-container-low);
    }
    .thumb {
      grid-row: span 2;
      width: 48px;
      aspect-ratio: 2 / 3;
      border-radius: 6px;
      overflow: hidden;
    }
    app-status-chip {
      justify-self: start;
    }
    .text {
      display: flex;
      flex-direction: column;
      gap: 2px;
      min-width: 0;
    }
    .title,
    .muted {
      white-space: nowrap;
      overflow: hidden;
      text-overflow: ellipsis;
    }
    .title {
      font: var(--mat-sys-title-small);
    }
    .muted {
      color: var(--mat-sys-on-surface-variant);
      font: var(--mat-sys-body-medium);
    }
    .progress {
      display: block;
      height: 4px;
      margin-top: 4px;
      border-radius: 2px;
      background: var(--mat-sys-surface-container-highest);
    }
    .progress span {
      display: block;
      height: 100%;
      border-radius: 2px;
      background: var(--mat-sys-primary);
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class NowPlaying {
  /** The sessions playing something (`nowPlaying` set). */
  readonly sessions = input.required<readonly Session[]>();
  protected readonly methods = PLAY_METHOD_CHIPS;
  protected readonly titleLines = titleLines;
}
