import { Clipboard } from '@angular/cdk/clipboard';
import { ChangeDetectionStrategy, Component, inject, input } from '@angular/core';
import { MatAnchor, MatButton } from '@angular/material/button';
import { MatCard, MatCardContent, MatCardHeader, MatCardTitle } from '@angular/material/card';
import { MatExpansionModule } from '@angular/material/expansion';
import { MatIcon } from '@angular/material/icon';
import { TranslocoDirective } from '@jsverse/transloco';
import type { User } from '@usher/contracts';
import { Notifier } from '../../core/notifier';
import { LocalDatePipe } from '../../shared/local-date';
import { MediaLinks } from '../../shared/media-link';
import { MEDIA_CHIPS } from '../../shared/membership-view';
import { StatusChip } from '../../shared/status-chip';

/**
 * The overview's media-server card (60-web.md §4.2): the member's link state, the server's
 * public address from `GET /media/server` with Copy and Open, and how to connect the Emby or
 * Jellyfin apps (by the server's `kind`) with the same username and password.
 */
@Component({
  selector: 'app-media-server-card',
  imports: [
    MatAnchor,
    MatButton,
    MatCard,
    MatCardContent,
    MatCardHeader,
    MatCardTitle,
    MatExpansionModule,
    MatIcon,
    TranslocoDirective,
    LocalDatePipe,
    StatusChip,
  ],
  templateUrl: './media-server-card.html',
  styleUrl: './media-server-card.scss',
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class MediaServerCard {
  private readonly clipboard = inject(Clipboard);
  private readonly notifier = inject(Notifier);
  readonly me = input.required<User>();
  /** The page's one `GET /media/server` (the posters' links read it too). */
  protected readonly server = inject(MediaLinks).server;
  protected readonly mediaChips = MEDIA_CHIPS;

  protected copy(url: string): void {
    if (this.clipboard.copy(url)) this.notifier.show('common.copied');
  }
}
