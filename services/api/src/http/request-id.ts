import { randomUUID } from 'node:crypto';

/** A client-sent request id is kept only when it is a safe token (20-api.md §1.1). */
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

export function resolveRequestId(incoming: string | undefined): string {
  if (incoming && SAFE_REQUEST_ID.test(incoming)) return incoming;
  return randomUUID();
}
