import type { SystemInfo } from '@usher/contracts';

/** A `GET /admin/system/info` reply with nothing to do, `overrides` on top. */
export function aSystemInfo(overrides: Partial<SystemInfo> = {}): SystemInfo {
  return {
    version: '1.0.0',
    nodeVersion: 'v24.0.0',
    replicaId: 'r1',
    uptimeSeconds: 3600,
    database: 'pglite',
    databaseVersion: '17.0',
    databaseSizeBytes: 1024,
    users: { total: 10, active: 8, expired: 2, mediaDisabled: 1, admins: 1 },
    redeemCodes: { active: 3 },
    requests: { pending: 0, automationErrors: 0 },
    payments: { pending: 0, completed30d: 4 },
    retryQueue: { pending: 0, gaveUp: 0 },
    settings: { undecryptable: 0 },
    integrations: {
      mediaServer: 'configured',
      metadata: 'configured',
      automation: 'not_configured',
      email: 'configured',
      payments: 'not_configured',
      bot: 'not_configured',
    },
    jobs: [],
    ...overrides,
  };
}
