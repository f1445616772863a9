import type { Context } from 'hono';
import type { AuditActor } from '../../../audit/audit.js';
import type { AppEnv } from '../../../http/context.js';
import type { RequestMeta } from '../../context.js';

export const meta = (c: Context<AppEnv>): RequestMeta => ({
  ip: c.get('clientIp'),
  requestId: c.get('requestId'),
});

/** The signed-in caller as an audit actor. */
export function callerActor(c: Context<AppEnv>): AuditActor {
  const auth = c.get('auth')!;
  return { type: auth.role === 'admin' ? 'admin' : 'user', id: auth.userId, label: auth.username };
}

export const UPSTREAM = ['UPSTREAM_UNAVAILABLE', 'UPSTREAM_AUTH_FAILED', 'NOT_CONFIGURED'];
