import { ChangeDetectionStrategy, Component, inject, input } from '@angular/core';
import { MatAnchor } from '@angular/material/button';
import { MatCard, MatCardContent, MatCardHeader, MatCardTitle } from '@angular/material/card';
import { MatExpansionModule } from '@angular/material/expansion';
import { RouterLink } from '@angular/router';
import { TranslocoDirective } from '@jsverse/transloco';
import type { User } from '@usher/contracts';
import { apiResource } from '../../core/api/api-resource';
import { LocalDatePipe } from '../../shared/local-date';
import { MEDIA_CHIPS } from '../../shared/membership-view';
import { StatusChip } from '../../shared/status-chip';
import { MediaHomeApi } from './media-home-api';
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
  private readonly api = inject(MediaHomeApi);
  readonly me = input.required<User>();
  protected readonly server = apiResource({
    params: () => true,
    load: () => this.api.server(),
  });
  protected readonly mediaChips = MEDIA_CHIPS;
}
