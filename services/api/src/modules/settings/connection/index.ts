import type {
  SettingCheck,
  SettingGroup,
  SettingsTestReply,
  SettingsTestRequest,
} from '@usher/contracts';
import type { Logger } from 'pino';
import type { Config } from '../../../config/env.js';
import { AppError } from '../../../errors/app-error.js';
import { redact } from '../../../integrations/errors.js';
import type { IntegrationMetrics } from '../../../metrics/integrations.js';
import type { SettingsStore } from '../../../settings-store/store.js';
import { testAutomation } from './automation.js';
import { TestDeadline, type GroupTest } from './check.js';
import { assertSecretsReentered } from '../../../settings-store/binding.js';
import { draftSettings, groupSecrets } from '../../../settings-store/draft.js';
import { testEmail } from './email.js';
import { testMediaServer } from './media-server.js';
import { testMessenger } from './messenger.js';
import { testMetadata } from './metadata.js';
import { testPayment } from './payment.js';
import { testSchedule } from './schedule.js';
import { testSso } from './sso.js';

/** Every group's bound per check except the media server's own (30-settings.md §6). */
export const DEFAULT_TEST_TIMEOUT_MS = 10_000;

/** The whole test's limit, whatever the group: every connection test answers within 10 s. */
export const TEST_DEADLINE_MS = 10_000;

const TESTS: Partial<Record<SettingGroup, GroupTest>> = {
  media_server: testMediaServer,
  metadata: testMetadata,
  automation: testAutomation,
  email: testEmail,
  payment: testPayment,
  messenger: testMessenger,
  schedule: testSchedule,
  sso: testSso,
};

export interface ConnectionTestDeps {
  store: SettingsStore;
  config: Config;
  metrics?: IntegrationMetrics;
  logger?: Logger;
  now: () => Date;
  /** The registered jobs (the schedule preview names the jobs each cron key drives). */
  jobs?: { name: string; scheduleSetting?: string }[];
  /** The whole test's limit; `TEST_DEADLINE_MS` unless a test shortens it. */
  deadlineMs?: number;
}

/**
 * `POST /admin/settings/:group/test`: validates the draft like a PUT, overlays it on the stored
 * values (nothing is saved), refuses a moved destination whose secret is not re-entered
 * (`SECRET_REENTRY_REQUIRED`) and runs the group's checks. Failures are data in the reply. The
 * reply comes within the deadline: checks still waiting then fail with a timeout reason.
 */
export async function testSettingsGroup(
  deps: ConnectionTestDeps,
  group: string,
  request: SettingsTestRequest,
): Promise<SettingsTestReply> {
  const test = Object.hasOwn(TESTS, group) ? TESTS[group as SettingGroup] : undefined;
  if (!test) {
    throw new AppError(
      'SETTING_TEST_UNSUPPORTED',
      `The settings group ${group.slice(0, 40)} has no connection test`,
    );
  }
  const settings = draftSettings(deps.store, group, request.values);
  // Before any call: a stored secret never travels to a destination the draft just typed.
  await assertSecretsReentered(group, request.values ?? {}, deps.store, settings);
  const timeoutMs =
    group === 'media_server'
      ? (await settings.get('MEDIA_SERVER_TIMEOUT_SECONDS')) * 1000
      : DEFAULT_TEST_TIMEOUT_MS;
  // One clock for the whole test: every check races it, so the reply comes within 10 s.
  const deadline = new TestDeadline(deps.deadlineMs ?? TEST_DEADLINE_MS);
  let checks: SettingCheck[];
  try {
    checks = await test({
      settings,
      deps: { metrics: deps.metrics, logger: deps.logger },
      config: deps.config,
      env: deps.store.env,
      timeoutMs,
      deadline,
      now: deps.now,
      jobs: deps.jobs,
      to: request.to,
    });
  } finally {
    deadline.dispose();
  }
  // Adapters never put secrets in messages; this is the last line of defence.
  const secrets = await groupSecrets(settings, group);
  const scrubbed = checks.map((c) => ({ ...c, message: redact(c.message, secrets) }));
  return { ok: scrubbed.every((c) => c.status !== 'fail'), checks: scrubbed };
}
