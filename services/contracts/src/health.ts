import { z } from 'zod';
import { isoInstant, safeString } from './common.js';

export const healthOkSchema = z.object({
  status: z.literal('ok'),
  db: z.literal('ok'),
  version: safeString(),
  uptimeSeconds: z.number().int().min(0),
});

export const healthDownSchema = z.object({
  status: z.literal('error'),
  db: z.literal('unreachable'),
});

const count = z.number().int().min(0);
const configured = z.enum(['configured', 'not_configured']);

/** `GET /admin/system/info` (20-api.md §6): what an operator checks first. */
export const systemInfoSchema = z
  .object({
    version: safeString(),
    /** Node.js runtime of this API process. */
    nodeVersion: safeString(),
    replicaId: safeString(),
    uptimeSeconds: count,
    database: z.enum(['postgres', 'pglite']),
    /** The server's own version string (`server_version`). */
    databaseVersion: safeString(),
    /** `pg_database_size` of the current database. */
    databaseSizeBytes: count,
    users: z.object({
      total: count,
      active: count,
      expired: count,
      mediaDisabled: count,
      admins: count,
    }),
    redeemCodes: z.object({ active: count }),
    requests: z.object({ pending: count, automationErrors: count }),
    payments: z.object({ pending: count, completed30d: count }),
    retryQueue: z.object({ pending: count, gaveUp: count }),
    settings: z.object({ undecryptable: count }),
    integrations: z.object({
      mediaServer: configured,
      metadata: configured,
      automation: configured,
      email: configured,
      payments: configured,
      bot: configured,
    }),
    /** Every registered job with its latest run (null: never ran). */
    jobs: z.array(
      z.object({
        name: safeString(),
        lastRun: z
          .object({
            status: safeString(),
            trigger: safeString(),
            startedAt: isoInstant,
            finishedAt: isoInstant.nullable(),
            error: safeString().nullable(),
          })
          .nullable(),
      }),
    ),
  })
  .meta({ id: 'SystemInfo' });
export type SystemInfo = z.infer<typeof systemInfoSchema>;

const money = z.number().int().min(0);

/**
 * `GET /admin/dashboard` (issue 36): the membership and revenue figures only Usher has, for the
 * admin landing. Days and months are counted in the business zone.
 */
export const adminDashboardSchema = z
  .object({
    generatedAt: isoInstant,
    timeZone: safeString(),
    members: z.object({
      /** Members (role user) whose membership runs now (a never-ending one is not counted). */
      active: count,
      /** Members whose membership has ended. */
      expired: count,
      /** Members who joined in the last 30 days. */
      joined30d: count,
      /** Active members whose membership ends in the next 30 days. */
      expiring30d: count,
      /** Members whose membership ended in the last 30 days and is still over. */
      lapsed30d: count,
      /** Completed payments and code redemptions in the last 30 days. */
      renewals30d: count,
    }),
    /** Completed payments per currency (minor units), this month against the last. */
    revenue: z.object({
      /** The first day of this month and of the last, `YYYY-MM-DD`. */
      thisMonth: safeString(),
      lastMonth: safeString(),
      currencies: z.array(
        z.object({
          currency: safeString(),
          thisMonth: money,
          thisMonthCount: count,
          /** The last month up to the same day and time: the fair comparison. */
          lastMonthToDate: money,
          lastMonth: money,
          lastMonthCount: count,
        }),
      ),
    }),
  })
  .meta({ id: 'AdminDashboard' });
export type AdminDashboard = z.infer<typeof adminDashboardSchema>;
