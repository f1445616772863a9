// What the single sign-on steps share (docs/sso.md): the dependencies, the verified identity,
// the audit actor and one-time hand-offs (their SQL in queries.ts).
import { createHash, randomBytes } from 'node:crypto';
import type { UserRow } from '../../db/schema/index.js';
import { AppError } from '../../errors/app-error.js';
import type { StoredLimiter } from '../../http/rate-limit.js';
import type { ModuleContext } from '../context.js';
import { readSsoSettings, type SsoSettings } from '../../integrations/oidc/index.js';
import { insertHandoff } from './queries.js';
import { type StateSealer } from './state.js';

/** How long the web app has to exchange a sign-in code, and to type an invite code. */
export const LOGIN_HANDOFF_SECONDS = 120;
export const REGISTER_HANDOFF_SECONDS = 900;

export interface SsoDeps {
  ctx: ModuleContext;
  sealer: StateSealer;
  /** The registration limiter (shared with `POST /auth/register`: attempts per IP). */
  registration: StoredLimiter;
  /** Bound of the work at the provider per request (under 10 s). */
  deadlineMs: number;
}

/** What the provider said about the person, after every check passed. */
export interface VerifiedIdentity {
  issuer: string;
  subject: string;
  email: string | null;
  emailVerified: boolean;
  preferredUsername: string | null;
  name: string | null;
  groups: string[];
}

/** What a registration hand-off keeps of the identity, with the decision and where to go after. */
export interface RegisterPayload extends Omit<VerifiedIdentity, 'groups'> {
  admin: boolean;
  redirect: string | null;
}

export async function activeSettings(ctx: ModuleContext): Promise<SsoSettings> {
  const s = await readSsoSettings(ctx.settings.store);
  if (!s.active) throw new AppError('SSO_DISABLED', 'Single sign-on is not switched on');
  return s;
}

export const hashCode = (code: string) => createHash('sha256').update(code).digest('hex');

/** Whether the provider's groups name one of the admin groups. */
export function inAdminGroup(s: SsoSettings, groups: string[]): boolean {
  return s.adminGroups.some((g) => groups.includes(g));
}

/** As with passwords: a disabled account is refused, here after the provider said yes. */
export function refuseDisabled(row: Pick<UserRow, 'isActive'>): void {
  if (!row.isActive) {
    throw new AppError('ACCOUNT_DISABLED', 'This account is disabled; contact the operator');
  }
}

export async function createHandoff(
  d: SsoDeps,
  kind: 'login' | 'register',
  values: { userId?: string; payload: Record<string, unknown> },
): Promise<string> {
  const code = randomBytes(32).toString('base64url');
  const now = d.ctx.now();
  const ttl = kind === 'login' ? LOGIN_HANDOFF_SECONDS : REGISTER_HANDOFF_SECONDS;
  const expiresAt = new Date(now.getTime() + ttl * 1000);
  await insertHandoff(
    d.ctx.db,
    {
      codeHash: hashCode(code),
      kind,
      userId: values.userId ?? null,
      payload: values.payload,
      expiresAt,
      createdAt: now,
    },
    now,
  );
  return code;
}
