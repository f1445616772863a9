import { HttpClient } from '@angular/common/http';
import { Injectable, computed, inject } from '@angular/core';
import type { MediaServerPublic } from '@usher/contracts';
import { firstValueFrom } from 'rxjs';
import { apiResource } from '../core/api/api-resource';
import { checkReply } from '../core/api/check-reply';

/**
 * Where an item opens in the media server's own web app: Jellyfin's `#/details?id=`, Emby's
 * `#!/item?id=`. Null without a public address, or for a key that is not a server id (a
 * ranking's `name:<series>` for a series the server no longer has).
 */
export function mediaItemUrl(server: MediaServerPublic | null, itemId: string): string | null {
  if (!server?.configured || !server.publicUrl || itemId.includes(':')) return null;
  const base = server.publicUrl.replace(/\/+$/, '');
  const id = encodeURIComponent(itemId);
  return server.kind === 'emby'
    ? `${base}/web/index.html#!/item?id=${id}`
    : `${base}/web/#/details?id=${id}`;
}

/**
 * The media server's public address, read once per page that asks, for posters that open their
 * item (issue 36: posters on rankings and the overview linked nowhere). Provide it in the page's
 * component; the overview's parts share one.
 */
@Injectable()
export class MediaLinks {
  private readonly http = inject(HttpClient);
  /** `GET /media/server`, for a page that shows the address too (one read for both). */
  readonly server = apiResource({
    params: () => true,
    load: async () =>
      checkReply(
        'mediaServerPublicSchema',
        await firstValueFrom(this.http.get<MediaServerPublic>('/api/v1/media/server')),
      ),
  });
  /** `itemId` → its URL on the media server, or null (nothing links until the address is read). */
  readonly itemUrl = computed(() => {
    const server = this.server.value();
    return (itemId: string) => mediaItemUrl(server, itemId);
  });
}
