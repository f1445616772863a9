import { errorBodySchema } from '@usher/contracts';
import { v7 as uuidv7 } from 'uuid';
import { auditLog } from '../../src/db/schema/index.js';
import { ENGINE } from '../support/database.js';
import { aUser } from '../support/users.js';
import { startWorld, type World } from './helpers.js';

/** Every route of this capability, with a body that would be valid for an admin. */
const ROUTES: [string, string, unknown?][] = [
  ['GET', '/api/v1/admin/users'],
  ['POST', '/api/v1/admin/users', { username: 'sec_new', neverExpires: true }],
  ['POST', '/api/v1/admin/users/bulk', { ids: ['ID'], action: 'deactivate' }],
  ['GET', '/api/v1/admin/users/ID'],
  ['PATCH', '/api/v1/admin/users/ID', { email: null }],
  ['POST', '/api/v1/admin/users/ID/extend', { days: 1 }],
  ['PUT', '/api/v1/admin/users/ID/active', { isActive: false }],
  ['PUT', '/api/v1/admin/users/ID/media-access', { enabled: false }],
  ['POST', '/api/v1/admin/users/ID/media-sync', {}],
  ['POST', '/api/v1/admin/users/ID/reset-password', {}],
  ['DELETE', '/api/v1/admin/users/ID'],
  ['GET', '/api/v1/admin/media-server/users?query=al'],
  ['GET', '/api/v1/admin/media-server/libraries'],
  ['PUT', '/api/v1/admin/current/media-binding', { mediaUserId: 'a'.repeat(32) }],
  ['DELETE', '/api/v1/admin/current/media-binding'],
];

describe(`admin user routes: authentication and validation (${ENGINE})`, () => {
  let w: World;
  let victimId: string;
  let memberToken: string;

  beforeAll(async () => {
    w = await startWorld('emby');
    const victim = await w.linkedMember();
    victimId = victim.id;
    const member = await aUser().create(w.t.context.db);
    memberToken = await w.tokenFor(member);
  });
  afterAll(async () => {
    await w.close();
  });

  const send = (method: string, path: string, body: unknown, token?: string) =>
    w.t.call(method, path.replace('ID', victimId), {
      token,
      body: body === undefined ? undefined : JSON.stringify(body).replace('"ID"', `"${victimId}"`),
    });

  it('should answer 401 UNAUTHENTICATED without a token and 403 FORBIDDEN for members, changing nothing', async () => {
    for (const [method, path, body] of ROUTES) {
      const anonymous = await send(method, path, body);
      const label = `${method} ${path}`;
      expect([label, anonymous.status]).toEqual([label, 401]);
      expect(errorBodySchema.parse(await anonymous.json()).error.code).toBe('UNAUTHENTICATED');
      const member = await send(method, path, body, memberToken);
      expect([label, member.status]).toEqual([label, 403]);
      expect(errorBodySchema.parse(await member.json()).error).toMatchObject({
        code: 'FORBIDDEN',
        requestId: expect.any(String),
      });
    }
    const victim = await w.row(victimId);
    expect(victim).toMatchObject({ isActive: true, mediaAccessDisabled: false });
    expect(await w.t.context.db.select().from(auditLog)).toEqual([]);
    expect(w.policyOf(victim!.mediaUserId!).IsDisabled).toBe(false);
  });

  it('should answer 400 VALIDATION_FAILED with field paths for malformed bodies', async () => {
    const cases: [string, string, unknown][] = [
      ['POST', '/api/v1/admin/users', { username: 'ok_name', neverExpires: true, role: 'root' }],
      ['PATCH', `/api/v1/admin/users/${victimId}`, { email: 5 }],
      ['POST', `/api/v1/admin/users/${victimId}/extend`, { days: '30' }],
      ['PUT', `/api/v1/admin/users/${victimId}/active`, {}],
      ['PUT', `/api/v1/admin/users/${victimId}/media-access`, { enabled: 1 }],
      ['POST', `/api/v1/admin/users/${victimId}/reset-password`, { newPassword: 'x'.repeat(129) }],
      ['PUT', '/api/v1/admin/current/media-binding', { mediaUserId: '' }],
      ['POST', '/api/v1/admin/users/bulk', { ids: [uuidv7()], action: 'extend', days: 0 }],
    ];
    for (const [method, path, body] of cases) {
      const res = await w.t.call(method, path, { token: w.adminToken, body });
      expect([`${method} ${path}`, res.status]).toEqual([`${method} ${path}`, 400]);
      const { error } = errorBodySchema.parse(await res.json());
      expect(error).toMatchObject({
        code: 'VALIDATION_FAILED',
        message: 'The request is not valid',
      });
      expect(error.details).toEqual(
        expect.arrayContaining([expect.objectContaining({ path: expect.any(String) })]),
      );
    }
    const malformed = await w.t.call('POST', `/api/v1/admin/users/${victimId}/extend`, {
      token: w.adminToken,
      body: '{"days":',
    });
    expect(malformed.status).toBe(400);
    expect(await w.t.context.db.select().from(auditLog)).toEqual([]);
  });
});
