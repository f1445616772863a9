// What the single sign-on steps share (docs/sso.md): the dependencies, the verified identity,
// identity rows and one-time hand-offs.
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, lt } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { type AuditActor } from '../../audit-log/audit.js';
import type { Tx } from '../../db/client.js';
import { uniqueViolation } from '../../db/errors.js';
import { ssoHandoffs, userIdentities, users, type UserRow } from '../../db/schema/index.js';
import { AppError } from '../../errors/app-error.js';
import type { StoredLimiter } from '../../http/rate-limit.js';
import type { ModuleContext } from '../context.js';
import { readSsoSettings, type SsoSettings } from '../../integrations/oidc/index.js';
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

export interface RegisterPayload {
  issuer: string;
  subject: string;
  email: string | null;
  emailVerified: boolean;
  preferredUsername: string | null;
  name: string | null;
  admin: boolean;
  redirect: string | null;
}

export async function activeSettings(ctx: ModuleContext): Promise<SsoSettings> {
  const s = await readSsoSettings(ctx.settings.store);
  if (!s.active) throw new AppError('SSO_DISABLED', 'Single sign-on is not switched on');
  return s;
}

export const hashCode = (code: string) => createHash('sha256').update(code).digest('hex');
export const userActor = (row: UserRow): AuditActor => ({
  type: row.role === 'admin' ? 'admin' : 'user',
  id: row.id,
  label: row.username,
});

/** Whether the provider's groups name one of the admin groups. */
export function inAdminGroup(s: SsoSettings, groups: string[]): boolean {
  return s.adminGroups.some((g) => groups.includes(g));
}

export async function findIdentityOwner(
  db: ModuleContext['db'],
  issuer: string,
  subject: string,
): Promise<{ identityId: string; user: UserRow } | null> {
  const [row] = await db
    .select({ identityId: userIdentities.id, user: users })
    .from(userIdentities)
    .innerJoin(users, eq(users.id, userIdentities.userId))
    .where(and(eq(userIdentities.issuer, issuer), eq(userIdentities.subject, subject)))
    .limit(1);
  return row ?? null;
}

export async function insertIdentity(
  tx: Tx,
  userId: string,
  id: VerifiedIdentity | RegisterPayload,
  now: Date,
): Promise<string> {
  const identityId = uuidv7();
  try {
    await tx.insert(userIdentities).values({
      id: identityId,
      userId,
      issuer: id.issuer,
      subject: id.subject,
      email: id.email,
      createdAt: now,
      lastUsedAt: now,
    });
  } catch (err) {
    if (uniqueViolation(err)) throw identityTaken();
    throw err;
  }
  return identityId;
}

/** As with passwords: a disabled account is refused, here after the provider said yes. */
export function refuseDisabled(row: Pick<UserRow, 'isActive'>): void {
  if (!row.isActive) {
    throw new AppError('ACCOUNT_DISABLED', 'This account is disabled; contact the operator');
  }
}

export const identityTaken = () =>
  new AppError('SSO_IDENTITY_TAKEN', 'This sign-in is already linked to another account');

export async function createHandoff(
  d: SsoDeps,
  kind: 'login' | 'register',
  values: { userId?: string; payload: Record<string, unknown> },
): Promise<string> {
  const code = randomBytes(32).toString('base64url');
  const now = d.ctx.now();
  const ttl = kind === 'login' ? LOGIN_HANDOFF_SECONDS : REGISTER_HANDOFF_SECONDS;
  // Expired hand-offs are swept here, so the table stays as small as the sign-ins in flight.
  await d.ctx.db.delete(ssoHandoffs).where(lt(ssoHandoffs.expiresAt, now));
  await d.ctx.db.insert(ssoHandoffs).values({
    id: uuidv7(),
    codeHash: hashCode(code),
    kind,
    userId: values.userId ?? null,
    payload: values.payload,
    expiresAt: new Date(now.getTime() + ttl * 1000),
    createdAt: now,
  });
  return code;
}
