import { ChangeDetectionStrategy, Component, inject, input } from '@angular/core';
import { MatAnchor } from '@angular/material/button';
import { MatCard, MatCardContent, MatCardHeader, MatCardTitle } from '@angular/material/card';
import { MatExpansionModule } from '@angular/material/expansion';
import { RouterLink } from '@angular/router';
import { TranslocoDirective } from '@jsverse/transloco';
import type { User } from '@usher/contracts';
import { LocalDatePipe } from '../../shared/local-date';
import { MediaLinks } from '../../shared/media-link';
import { MEDIA_CHIPS } from '../../shared/membership-view';
import { StatusChip } from '../../shared/status-chip';
import { ServerAddress } from './server-address';

/**
 * The overview's media-server card (60-web.md §4.2): the member's link state, the server's
 * public address from `GET /media/server` with Copy and Open, and how to connect the Emby or
 * Jellyfin apps (by the server's `kind`) with the same username and password.
 */
@Component({
  selector: 'app-media-server-card',
  imports: [
    MatAnchor,
    MatCard,
    MatCardContent,
    MatCardHeader,
    MatCardTitle,
    MatExpansionModule,
    RouterLink,
    TranslocoDirective,
    LocalDatePipe,
    StatusChip,
    ServerAddress,
  ],
  templateUrl: './media-server-card.html',
  styleUrl: './media-server-card.scss',
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class MediaServerCard {
  readonly me = input.required<User>();
  /** The page's one `GET /media/server` (the posters' links read it too). */
  protected readonly server = inject(MediaLinks).server;
  protected readonly mediaChips = MEDIA_CHIPS;
}
