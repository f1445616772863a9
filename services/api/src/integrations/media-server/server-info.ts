// probe() (§1.2): who answers at MEDIA_SERVER_URL, whether it is the product the settings name
// (§8 risk 2), and whether our key is accepted.
import { IntegrationError } from '../errors.js';
import type { Call, MediaServerClient } from './client.js';
import { normaliseId, PRODUCT_NAMES, type MediaServerKind, type ServerInfo } from './port.js';
import { SystemInfoSchema } from './wire.js';

/** Oldest supported versions; older ones still work, but the probe says so. */
export const MINIMUM_VERSION: Record<MediaServerKind, readonly number[]> = {
  emby: [4, 7],
  jellyfin: [10, 9],
};

export function isSupportedVersion(kind: MediaServerKind, version: string): boolean {
  const have = version.split('.').map((n) => Number.parseInt(n, 10) || 0);
  const want = MINIMUM_VERSION[kind];
  for (let i = 0; i < want.length; i++) {
    const a = have[i] ?? 0;
    const b = want[i] ?? 0;
    if (a !== b) return a > b;
  }
  return true;
}

/**
 * Public info without a key (Jellyfin sends `ProductName`, Emby none), then `/System/Info` with
 * the key. `otherProduct` is where the other product would answer when ours gives 404, e.g. an
 * Emby adapter pointed at Jellyfin 12, which no longer serves `/emby/...`.
 */
export async function readServerInfo(
  client: MediaServerClient,
  otherProduct: Call,
): Promise<ServerInfo> {
  const kind = client.kind;
  const anonymous: Call = {
    op: 'probe',
    path: '/System/Info/Public',
    auth: { as: 'anonymous' },
    pass: [404],
  };
  let reply = await client.send(anonymous);
  if (reply.status === 404) reply = await client.send({ ...otherProduct, pass: [404] });
  if (reply.status === 404) {
    throw new IntegrationError(
      'media_server',
      'probe',
      'not_found',
      `No ${PRODUCT_NAMES[kind]} server answers at MEDIA_SERVER_URL (HTTP 404)`,
      404,
    );
  }
  const info = client.parse(reply, anonymous, SystemInfoSchema);
  const product: MediaServerKind = /jellyfin/i.test(info.ProductName ?? '') ? 'jellyfin' : 'emby';
  if (product !== kind) {
    throw new IntegrationError(
      'media_server',
      'probe',
      'rejected',
      `This server is ${PRODUCT_NAMES[product]} ${info.Version}, not ${PRODUCT_NAMES[kind]}: ` +
        `set MEDIA_SERVER_KIND to ${product}`,
    );
  }
  // The public info needs no key; this call is the one that checks it.
  await client.json({ op: 'probe', path: '/System/Info' }, SystemInfoSchema);
  return {
    id: normaliseId(info.Id),
    name: info.ServerName ?? '',
    version: info.Version,
    product,
    supported: isSupportedVersion(kind, info.Version),
  };
}
