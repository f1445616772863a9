// `devices_enforce_blacklist` (30-settings.md §9): every 15 minutes, devices of blacklisted
// clients are signed out — including devices that signed in after the entry was added.
import { recordAudit, jobActor } from '../../audit-log/audit.js';
import type { JobDefinition } from '../../scheduler/scheduler.js';
import { IntegrationError } from '../../integrations/errors.js';
import type { ModuleContext } from '../context.js';
import { enforceBlacklist } from './blacklist.js';

export const ENFORCE_JOB = 'devices_enforce_blacklist';
export const ENFORCE_CRON = '*/15 * * * *';

export function devicesJobs(ctx: ModuleContext): JobDefinition[] {
  return [
    {
      name: ENFORCE_JOB,
      description: 'Signs out devices whose client app is on the blacklist',
      schedule: ENFORCE_CRON,
      run: async ({ signal }) => {
        try {
          const r = await enforceBlacklist(ctx, { actorId: null }, signal);
          // Runs when: the blacklist is not empty and a media server is configured.
          if (r.entries === 0) return { status: 'skipped', summary: { reason: 'blacklist empty' } };
          // Sign-outs by the job are audited like the admin's sweep (the actor is the job).
          if (r.loggedOut + r.failed > 0) {
            await recordAudit(ctx.db, {
              actor: jobActor(ENFORCE_JOB),
              action: 'device.blacklist_enforce',
              target: { type: 'client_blacklist', id: null },
              details: { loggedOut: r.loggedOut, failed: r.failed },
            });
          }
          return { summary: r };
        } catch (err) {
          if (err instanceof IntegrationError && err.kind === 'not_configured') {
            return { status: 'skipped', summary: { reason: 'media server not configured' } };
          }
          throw err;
        }
      },
    },
  ];
}
