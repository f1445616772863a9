import type { ApiStack } from './api-stack.js';

/**
 * JSON calls against the e2e stack, for journeys that seed what they are not about (an admin past
 * the forced password change, a member) through the real API.
 */
export async function apiCall<T>(
  stack: ApiStack,
  method: string,
  path: string,
  body?: unknown,
  token?: string,
): Promise<{ status: number; body: T }> {
  const response = await fetch(`${stack.baseUrl}/api/v1${path}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : null) as T };
}

/**
 * Finishes the bootstrap admin's forced password change through the API (journey 1 covers it in
 * the browser), so other journeys start from a usable admin. Returns a fresh admin token.
 */
export async function readyAdmin(stack: ApiStack, newPassword: string): Promise<string> {
  const login = await apiCall<{ token: string }>(stack, 'POST', '/auth/login', {
    username: 'admin',
    password: stack.temporaryPassword,
  });
  if (login.status !== 200) throw new Error(`admin login failed: ${login.status}`);
  const changed = await apiCall<{ token: string }>(
    stack,
    'PUT',
    '/me/password',
    { currentPassword: stack.temporaryPassword, newPassword },
    login.body.token,
  );
  if (changed.status !== 200) throw new Error(`password change failed: ${changed.status}`);
  return changed.body.token;
}

/**
 * Creates a member with a media-server account through the admin API, expiring in `days`;
 * returns the member's id.
 */
export async function createMember(
  stack: ApiStack,
  adminToken: string,
  username: string,
  password: string,
  days = 30,
): Promise<string> {
  const expiresAt = new Date(Date.now() + days * 86_400_000).toISOString();
  const created = await apiCall<{ user: { id: string } }>(
    stack,
    'POST',
    '/admin/users',
    { username, password, expiresAt, createMediaUser: true },
    adminToken,
  );
  if (created.status !== 201) throw new Error(`member not created: ${JSON.stringify(created)}`);
  return created.body.user.id;
}

/** The media server's user id of a member (for seeding that user's playback on the fake). */
export async function mediaUserId(
  stack: ApiStack,
  adminToken: string,
  memberId: string,
): Promise<string> {
  const detail = await apiCall<{ media: { mediaUserId: string } }>(
    stack,
    'GET',
    `/admin/users/${memberId}`,
    undefined,
    adminToken,
  );
  if (detail.status !== 200) throw new Error(`member not found: ${JSON.stringify(detail)}`);
  return detail.body.media.mediaUserId;
}
