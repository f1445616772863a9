import type { FakeTelegram } from '../../src/telegram/index.js';

export interface ApiReply {
  status: number;
  body: {
    ok: boolean;
    result?: unknown;
    description?: string;
    error_code?: number;
    parameters?: { retry_after?: number };
  };
}

/** Calls the fake the way telegraf does: POST with a JSON body. */
export async function call(
  fake: FakeTelegram,
  method: string,
  params: Record<string, unknown> = {},
  init: { signal?: AbortSignal; token?: string } = {},
): Promise<ApiReply> {
  const response = await fetch(`${fake.url}/bot${init.token ?? fake.token}/${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(params),
    signal: init.signal,
  });
  return { status: response.status, body: (await response.json()) as ApiReply['body'] };
}

/** The `result` of a call that must succeed; fails the test with the description otherwise. */
export async function ok<T = Record<string, unknown>>(
  fake: FakeTelegram,
  method: string,
  params: Record<string, unknown> = {},
): Promise<T> {
  const reply = await call(fake, method, params);
  if (!reply.body.ok) throw new Error(`${method} failed: ${reply.body.description}`);
  return reply.body.result as T;
}
