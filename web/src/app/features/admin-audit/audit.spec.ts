import { HttpTestingController } from '@angular/common/http/testing';
import { type ComponentFixture, TestBed } from '@angular/core/testing';
import { Router } from '@angular/router';
import type { AuditEntry } from '@usher/contracts';
import { aUser, storeSession } from '../../../testing/fixtures';
import { NO_MATERIAL_ANIMATIONS, byTestId, flushAndRender } from '../../../testing/dom';
import { provideTestApp } from '../../../testing/providers';
import { auditDetails, valueText } from './audit-details';
import AuditPage from './audit-page';
import { auditSentence } from './audit-summary';

const ADMIN_ID = '01936f6e-8a7b-7c3d-9e4f-0123456789ab';
const USER_ID = '01936f6e-8a7b-7c3d-9e4f-00000000000c';

function anEntry(overrides: Partial<AuditEntry> = {}): AuditEntry {
  return {
    id: '01936f6e-8a7b-7c3d-9e4f-00000000000a',
    at: '2026-03-01T10:00:00.000Z',
    actorType: 'admin',
    actorId: ADMIN_ID,
    actorLabel: 'admin',
    action: 'settings.update',
    targetType: 'setting',
    targetId: 'schedule',
    details: {
      keys: ['EXPIRY_CHECK_CRON', 'STRIPE_SECRET_KEY'],
      changes: {
        EXPIRY_CHECK_CRON: { from: '0 * * * *', to: '15 * * * *' },
        STRIPE_SECRET_KEY: { changed: true, cleared: false },
      },
    },
    ip: '203.0.113.9',
    requestId: 'req-1',
    ...overrides,
  };
}

// Issue 36: rows an operator reads as sentences.
describe('audit sentences', () => {
  const t = (key: string, params: Record<string, unknown>) => `${key} ${JSON.stringify(params)}`;
  const money = (amount: number, currency: string) => `${amount} ${currency}`;

  it('should say who paid how much for which plan and how many days it gave', () => {
    const paid = anEntry({
      actorType: 'webhook',
      actorId: null,
      actorLabel: 'stripe',
      action: 'payment.completed',
      targetType: 'payment',
      details: { username: 'lila', planName: 'Monthly', amount: 499, currency: 'usd', days: 30 },
    });
    expect(auditSentence(paid, t, money)).toBe(
      'audit.says.paid {"user":"lila","amount":"499 usd","plan":"Monthly","days":30}',
    );
    // An older entry without the names still reads, with "someone".
    const older = { ...paid, details: { amount: 499, currency: 'usd', days: 30 } };
    expect(auditSentence(older, t, money)).toContain('"user":"audit.says.someone {}"');
    // Without an amount it is no sentence: the generic summary takes over.
    expect(auditSentence({ ...paid, details: {} }, t, money)).toBeNull();
  });

  it('should word redemptions, sign-ups, reviews and job runs, and leave the rest', () => {
    const says = (action: string, details: unknown, targetId: string | null = null) =>
      auditSentence(anEntry({ action, details, targetId, actorLabel: 'lila' }), t, money);
    expect(says('redeem.use', { days: 7 })).toBe('audit.says.redeemed {"actor":"lila","days":7}');
    expect(says('user.register', {})).toBe('audit.says.registered {"actor":"lila"}');
    expect(says('request.create', { name: 'Primer', type: 'MOVIE' })).toBe(
      'audit.says.requested {"actor":"lila","name":"Primer"}',
    );
    expect(says('request.reject', { reason: 'Not on TMDB' })).toBe(
      'audit.says.rejected {"actor":"lila","reason":"Not on TMDB"}',
    );
    expect(says('job.run', { runId: 'r' }, 'cleanup')).toBe(
      'audit.says.ranJob {"actor":"lila","job":"cleanup"}',
    );
    expect(says('settings.update', anEntry().details)).toBeNull();
  });
});

describe('audit details', () => {
  it('should turn from/to pairs into changes and the rest into facts', () => {
    expect(auditDetails(anEntry().details)).toEqual({
      changes: [{ path: 'EXPIRY_CHECK_CRON', before: '0 * * * *', after: '15 * * * *' }],
      facts: [
        { path: 'keys', value: 'EXPIRY_CHECK_CRON, STRIPE_SECRET_KEY' },
        { path: 'changes.STRIPE_SECRET_KEY.changed', value: 'true' },
        { path: 'changes.STRIPE_SECRET_KEY.cleared', value: 'false' },
      ],
    });
  });

  it('should read before/after pairs at any depth and show empty values plainly', () => {
    expect(
      auditDetails({ expiresAt: { before: null, after: '2026-04-01T00:00:00.000Z' }, days: 30 }),
    ).toEqual({
      changes: [{ path: 'expiresAt', before: '—', after: '2026-04-01T00:00:00.000Z' }],
      facts: [{ path: 'days', value: '30' }],
    });
    expect(auditDetails(null)).toEqual({ changes: [], facts: [] });
    expect(valueText('')).toBe('""');
    expect(valueText({ a: 1 })).toBe('{"a":1}');
  });
});

// The first render compiles Material and the page; slow on a shared 2-core CI machine.
jest.setTimeout(20_000);
describe('AuditPage', () => {
  let http: HttpTestingController;
  let router: Router;
  let fixture: ComponentFixture<AuditPage>;

  async function render(inputs: Record<string, string> = {}): Promise<HTMLElement> {
    storeSession();
    TestBed.configureTestingModule({ providers: [...provideTestApp(), NO_MATERIAL_ANIMATIONS] });
    http = TestBed.inject(HttpTestingController);
    router = TestBed.inject(Router);
    jest.spyOn(router, 'navigate').mockResolvedValue(true);
    fixture = TestBed.createComponent(AuditPage);
    for (const [key, value] of Object.entries(inputs)) fixture.componentRef.setInput(key, value);
    await fixture.whenStable();
    return fixture.nativeElement as HTMLElement;
  }

  afterEach(() => http.verify());

  it('should query every filter from the URL and drop malformed ones', async () => {
    await render({
      actorId: 'not-a-uuid',
      action: 'settings.',
      targetType: 'user',
      targetId: USER_ID,
      from: '2026-03-01',
      to: '03/05/2026',
      page: '2',
    });
    const req = http.expectOne((r) => r.url === '/api/v1/admin/audit-log');
    expect(req.request.params.keys().sort()).toEqual([
      'action',
      'from',
      'page',
      'pageSize',
      'targetId',
      'targetType',
    ]);
    expect(req.request.params.get('action')).toBe('settings.');
    expect(req.request.params.get('targetId')).toBe(USER_ID);
    expect(req.request.params.get('page')).toBe('2');
    req.flush({ data: [], total: 0, page: 2, pageSize: 20 });
    await flushAndRender(fixture);
    expect(fixture.nativeElement.textContent).toContain('No results for these filters.');
  });

  it('should pick the actor by name: the username becomes their id, nobody by it shows nothing', async () => {
    await render({ actor: 'lila' });
    const lookup = http.expectOne((r) => r.url === '/api/v1/admin/users');
    expect(lookup.request.params.get('search')).toBe('lila');
    lookup.flush({
      data: [
        {
          ...aUser({ id: USER_ID, username: 'lila' }),
          mediaDisabled: false,
          mediaAccessDisabled: false,
          updatedAt: '2026-01-01T00:00:00.000Z',
        },
      ],
      total: 1,
      page: 1,
      pageSize: 50,
    });
    await flushAndRender(fixture);
    const req = http.expectOne((r) => r.url === '/api/v1/admin/audit-log');
    expect(req.request.params.get('actorId')).toBe(USER_ID);
    expect(req.request.params.has('actor')).toBe(false);
    req.flush({ data: [], total: 0, page: 1, pageSize: 20 });
    await flushAndRender(fixture);
  });

  it('should list entries with a readable summary and open the before/after details', async () => {
    const root = await render({ actorId: ADMIN_ID });
    const req = http.expectOne((r) => r.url === '/api/v1/admin/audit-log');
    expect(req.request.params.get('actorId')).toBe(ADMIN_ID);
    req.flush({
      data: [
        anEntry(),
        anEntry({
          id: '01936f6e-8a7b-7c3d-9e4f-00000000000b',
          action: 'user.extend',
          targetType: 'user',
          targetId: USER_ID,
          details: { days: 30 },
        }),
      ],
      total: 2,
      page: 1,
      pageSize: 20,
    });
    await flushAndRender(fixture);
    const table = byTestId(root, 'audit-table')!;
    const settingsRow = table.querySelector('[data-action="settings.update"]')!;
    expect(settingsRow.textContent).toContain('Administrator');
    expect(settingsRow.textContent).toContain('EXPIRY_CHECK_CRON: 0 * * * * → 15 * * * *');
    expect(settingsRow.querySelector('a[href="/admin/settings?group=schedule"]')).not.toBeNull();
    const userRow = table.querySelector('[data-action="user.extend"]')!;
    expect(userRow.querySelector(`a[href="/admin/users/${USER_ID}"]`)).not.toBeNull();
    expect(userRow.textContent).toContain('Administrator');
    expect(userRow.textContent).toContain('admin extended a membership by 30 days');

    (settingsRow.querySelector('[data-testid="audit-details-toggle"]') as HTMLElement).click();
    await flushAndRender(fixture);
    const details = byTestId(root, 'audit-details')!;
    expect(details.querySelector('.before')!.textContent).toBe('0 * * * *');
    expect(details.textContent).toContain('15 * * * *');
    expect(details.textContent).toContain('changes.STRIPE_SECRET_KEY.changed');
    expect(details.textContent).toContain('203.0.113.9');
  });
});
