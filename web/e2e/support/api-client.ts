import type { ApiStack } from './api-stack.js';

/** Small JSON calls against the e2e stack, for seeding what a journey is not about. */
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
