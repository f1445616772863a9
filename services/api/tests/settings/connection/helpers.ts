import {
  errorBodySchema,
  settingsTestReplySchema,
  type SettingCheck,
  type SettingsTestReply,
} from '@usher/contracts';
import type { Config } from '../../../src/config/env.js';
import { createTestApp, type TestApp } from '../../support/app.js';
import { createTestDatabase, type TestDatabase } from '../../support/database.js';
import { aUser } from '../../support/users.js';

export interface ConnectionHarness {
  t: TestApp;
  database: TestDatabase;
  /** An admin's bearer token. */
  token: string;
  /** POSTs a connection test as an admin; the reply must be 200 and match the contract. */
  test(group: string, body?: unknown): Promise<SettingsTestReply>;
  /** POSTs a connection test expecting an error status; returns the parsed error body. */
  testError(
    group: string,
    body: unknown,
    status: number,
  ): Promise<ReturnType<typeof errorBodySchema.parse>>;
  close(): Promise<void>;
}

/** An app whose settings come from `settingsEnv` (the fakes' addresses), plus an admin. */
export async function connectionHarness(
  settingsEnv: Record<string, string>,
  options: { config?: Config; now?: () => Date; connectionTestDeadlineMs?: number } = {},
): Promise<ConnectionHarness> {
  const database = await createTestDatabase();
  const t = createTestApp(database.handle, { settingsEnv, ...options });
  const admin = await aUser().admin().create(t.context.db);
  const token = (await t.context.tokens.sign({ sub: admin.id, role: 'admin', ver: 0 })).token;
  const post = (group: string, body: unknown) =>
    t.call('POST', `/api/v1/admin/settings/${group}/test`, { token, body });
  return {
    t,
    database,
    token,
    async test(group, body = {}) {
      const res = await post(group, body);
      const text = await res.text();
      if (res.status !== 200) throw new Error(`expected 200, got ${res.status}: ${text}`);
      return settingsTestReplySchema.parse(JSON.parse(text));
    },
    async testError(group, body, status) {
      const res = await post(group, body);
      expect(res.status).toBe(status);
      return errorBodySchema.parse(await res.json());
    },
    close: () => database.close(),
  };
}

/** The one check with `target` (fails the test when there is not exactly one). */
export function check(reply: SettingsTestReply, target: string): SettingCheck {
  const found = reply.checks.filter((c) => c.target === target);
  expect(found).toHaveLength(1);
  return found[0]!;
}
