import type { SettingCheck } from '@usher/contracts';
import {
  createAutomation,
  missingAutomationSettings,
  readAutomationSettings,
} from '../../../integrations/automation/factory.js';
import { fail, fromProbe, runCheck, warn, type GroupTest } from './check.js';

/**
 * `moviepilot`: log in and read one authenticated route. `servarr`: `movies` and `series`, each
 * its system status plus the chosen quality profile and root folder (30-settings.md §6).
 */
export const testAutomation: GroupTest = async (ctx) => {
  const settings = await readAutomationSettings(ctx.settings);
  const first = settings.kind === 'moviepilot' ? 'moviepilot' : 'movies';
  const url = settings.kind === 'moviepilot' ? settings.url : settings.movies.url;
  if (!url) {
    return [
      await runCheck(first, ctx, async () =>
        warn('AUTOMATION_URL is empty: approved requests wait for manual action'),
      ),
    ];
  }
  const missing = missingAutomationSettings(settings);
  if (missing.length) {
    const message = `Not configured: set ${missing.join(', ')}`;
    const targets = settings.kind === 'moviepilot' ? ['moviepilot'] : ['movies', 'series'];
    return Promise.all(
      targets.map((t) => runCheck(t, ctx, async () => fail(message, 'not_configured'))),
    );
  }
  // A fresh adapter (and token cache) per test, so the login itself is what gets tested.
  const adapter = createAutomation(settings, ctx.deps, { timeoutMs: ctx.timeoutMs });
  if (adapter.kind === 'moviepilot') {
    return [await runCheck('moviepilot', ctx, async () => fromProbe(await adapter.probe()))];
  }
  const checks: Promise<SettingCheck>[] = (['movies', 'series'] as const).map((role) =>
    runCheck(role, ctx, async () => fromProbe(await adapter.probeService(role))),
  );
  return Promise.all(checks);
};
