import type { User } from '@usher/contracts';
import { SESSION_KEY } from '../app/core/session/session-store';

/** A valid `User` (it passes the contract schema); override what the test is about. */
export function aUser(overrides: Partial<User> = {}): User {
  return {
    id: '01936f6e-8a7b-7c3d-9e4f-0123456789ab',
    username: 'alice',
    email: 'alice@example.com',
    role: 'user',
    isActive: true,
    mustChangePassword: false,
    expiresAt: '2030-01-31T00:00:00.000Z',
    isExpired: false,
    registeredVia: 'invite',
    locale: null,
    lastLoginAt: '2026-01-02T03:04:05.000Z',
    createdAt: '2025-06-01T10:00:00.000Z',
    media: { linked: true, mediaUserId: 'm-1', state: 'enabled' },
    messenger: { bound: false, messengerId: null, boundAt: null },
    ...overrides,
  };
}

/** The API's error body (20-api.md §1.5). */
export function errorBody(code: string, message = 'API message', details?: unknown) {
  return { error: { code, message, requestId: 'req-123', ...(details ? { details } : {}) } };
}

/**
 * A refusal for `TestRequest.flush(...refusal(409, 'CODE'))`: the shared error body and its
 * status (the specs' status text is never read).
 */
export function refusal(
  status: number,
  code: string,
  message = 'API message',
  details?: unknown,
): [ReturnType<typeof errorBody>, { status: number; statusText: string }] {
  return [errorBody(code, message, details), { status, statusText: 'x' }];
}

/** Pretends a session was stored by an earlier visit. */
export function storeSession(token = 'stored-token'): void {
  const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
  localStorage.setItem(SESSION_KEY, JSON.stringify({ token, expiresAt }));
}

export const TOKEN_REPLY = { token: 'fresh-token', expiresAt: '2030-01-01T00:00:00.000Z' };

/** Lets pending promise chains (dev-mode reply checks, async handlers) run to their next await. */
export function settle(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}
