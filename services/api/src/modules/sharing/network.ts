// Addresses as the sharing rules see them (docs/sharing.md): the media server's `RemoteEndPoint`
// cleaned up, private and loopback addresses as "home", and the network an address belongs to —
// the IPv4 address itself, or the /64 of an IPv6 address (one household's prefix).
import { BlockList, isIP } from 'node:net';

/** Where a stream comes from. `network` is `home` for a private or loopback address. */
export interface Origin {
  address: string;
  network: string;
  home: boolean;
}

const PRIVATE = new BlockList();
for (const [net, bits] of [
  ['10.0.0.0', 8],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  // Carrier-grade NAT: the server only sees it from inside the provider's own network.
  ['100.64.0.0', 10],
  ['0.0.0.0', 8],
] as const) {
  PRIVATE.addSubnet(net, bits, 'ipv4');
}
for (const [net, bits] of [
  ['::1', 128],
  ['::', 128],
  ['fc00::', 7],
  ['fe80::', 10],
] as const) {
  PRIVATE.addSubnet(net, bits, 'ipv6');
}

/**
 * The address alone: without a port (`1.2.3.4:5678`, `[2001:db8::1]:443`), a zone (`%eth0`) or
 * the IPv4-mapped prefix (`::ffff:1.2.3.4`); null when it is not an IP address.
 */
export function cleanAddress(raw: string | undefined): string | null {
  if (!raw) return null;
  let v = raw.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(v);
  if (bracketed) v = bracketed[1]!;
  else if (/^\d{1,3}(\.\d{1,3}){3}:\d+$/.test(v)) v = v.slice(0, v.lastIndexOf(':'));
  v = v.replace(/%.*$/, '');
  const mapped = /^::ffff:(\d{1,3}(\.\d{1,3}){3})$/i.exec(v);
  if (mapped) v = mapped[1]!;
  const family = isIP(v);
  if (family === 0) return null;
  return family === 6 ? v.toLowerCase() : v;
}

/** The eight 16-bit groups of an IPv6 address (`::` expanded, an embedded IPv4 tail converted). */
function groups(v6: string): number[] {
  let text = v6;
  const tail = /(\d{1,3}(\.\d{1,3}){3})$/.exec(text);
  if (tail) {
    const [a, b, c, d] = tail[1]!.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, -tail[1]!.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, rest] = text.split('::') as [string, string | undefined];
  const left = head ? head.split(':') : [];
  const right = rest === undefined ? [] : rest ? rest.split(':') : [];
  const fill = rest === undefined ? 0 : 8 - left.length - right.length;
  return [...left, ...Array<string>(fill).fill('0'), ...right].map((g) => Number.parseInt(g, 16));
}

/** Where an address comes from; null when the text is not an IP address. */
export function originOf(raw: string | undefined): Origin | null {
  const address = cleanAddress(raw);
  if (!address) return null;
  const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
  if (PRIVATE.check(address, family)) return { address, network: 'home', home: true };
  if (family === 'ipv4') return { address, network: address, home: false };
  const prefix = groups(address)
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':');
  return { address, network: `${prefix}::/64`, home: false };
}

const EARTH_KM = 6371;
const rad = (deg: number) => (deg * Math.PI) / 180;

/** Great-circle distance in kilometres (haversine). */
export function distanceKm(
  a: { latitude: number; longitude: number },
  b: { latitude: number; longitude: number },
): number {
  const dLat = rad(b.latitude - a.latitude);
  const dLon = rad(b.longitude - a.longitude);
  const h =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(rad(a.latitude)) * Math.cos(rad(b.latitude)) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}
