import { isIP } from 'node:net';

/**
 * The client address: the entry `trustHops` from the right of X-Forwarded-For (each trusted proxy
 * appends the address it saw), else the socket address. Anything that is not an IP is ignored so
 * a forged header can never put garbage into the audit log's inet column.
 */
export function resolveClientIp(
  forwardedFor: string | undefined,
  socketAddress: string | undefined,
  trustHops: number,
): string | null {
  if (trustHops > 0 && forwardedFor) {
    const entries = forwardedFor
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const candidate = entries[entries.length - trustHops];
    if (candidate && isIP(candidate)) return candidate;
  }
  if (socketAddress) {
    const plain = socketAddress.startsWith('::ffff:') ? socketAddress.slice(7) : socketAddress;
    if (isIP(plain)) return plain;
  }
  return null;
}
