import { HttpTestingController } from '@angular/common/http/testing';
import { type ComponentFixture, TestBed } from '@angular/core/testing';
import type { AdminUser } from '@usher/contracts';
import { aUser, settle } from '../../../testing/fixtures';
import { provideTestApp } from '../../../testing/providers';
import { aSystemInfo } from '../../../testing/system-info';
import { AdminCounts } from '../../core/shell/admin-counts';
import AdminOverview, { attentionTiles, dayAfter, expiringQuery } from './admin-overview';

const INFO_URL = '/api/v1/admin/system/info';
const USERS_URL = '/api/v1/admin/users';

const member = (username: string, expiresAt: string): AdminUser => ({
  ...aUser({ id: '01936f6e-8a7b-7c3d-9e4f-0000000000a1', username, expiresAt }),
  mediaDisabled: false,
  mediaAccessDisabled: false,
  updatedAt: '2026-01-01T00:00:00.000Z',
});

/** The admin landing answers "what now?" (issue 14). */
describe('AdminOverview', () => {
  let fixture: ComponentFixture<AdminOverview>;
  let http: HttpTestingController;
  let root: HTMLElement;

  async function render(info = aSystemInfo(), expiring: AdminUser[] = [], total = 0) {
    TestBed.configureTestingModule({ providers: provideTestApp() });
    http = TestBed.inject(HttpTestingController);
    fixture = TestBed.createComponent(AdminOverview);
    root = fixture.nativeElement as HTMLElement;
    await fixture.whenStable();
    http.expectOne(INFO_URL).flush(info);
    const users = http.expectOne((r) => r.url === USERS_URL);
    expect(users.request.params.get('status')).toBe('active');
    expect(users.request.params.get('sort')).toBe('expiresAt');
    expect(users.request.params.get('pageSize')).toBe('5');
    users.flush({ data: expiring, total: total || expiring.length, page: 1, pageSize: 5 });
    await settle();
    await fixture.whenStable();
  }

  const byTestId = (id: string) => root.querySelector<HTMLElement>(`[data-testid="${id}"]`);

  afterEach(() => http.verify());

  it('should count what needs attention, each tile linking to the filtered list', async () => {
    const info = aSystemInfo({
      requests: { pending: 4, automationErrors: 1 },
      retryQueue: { pending: 1, gaveUp: 1 },
      settings: { undecryptable: 2 },
      jobs: [
        {
          name: 'expiry_check',
          lastRun: {
            status: 'failed',
            trigger: 'schedule',
            startedAt: '2026-11-24T03:00:00.000Z',
            finishedAt: '2026-11-24T03:00:01.000Z',
            error: 'database unavailable',
          },
        },
        { name: 'cleanup', lastRun: null },
      ],
    });
    await render(info, [member('iris', '2026-11-27T00:00:00.000Z')], 6);
    const pending = byTestId('tile-pendingRequests')!;
    expect(pending.textContent).toContain('4');
    expect(pending.textContent).toContain('Requests to review');
    expect(pending.getAttribute('href')).toBe('/admin/requests?status=pending');
    expect(byTestId('tile-automationErrors')!.getAttribute('href')).toBe(
      '/admin/requests?automationError=true',
    );
    expect(byTestId('tile-expiringSoon')!.textContent).toContain('6');
    expect(byTestId('tile-expiringSoon')!.getAttribute('href')).toContain('status=active');
    expect(byTestId('tile-failedJobs')!.textContent).toContain('1');
    expect(byTestId('tile-retryQueue')!.classList).toContain('tone-error');
    expect(byTestId('tile-undecryptable')!.textContent).toContain('2');
    expect(byTestId('all-clear')).toBeNull();
    expect(byTestId('expiring-list')!.textContent).toContain('iris');
    expect(root.textContent).toContain('See all 6');
    expect(byTestId('failed-jobs')!.textContent).toContain('database unavailable');
    // Automation, payments and the bot are not configured in the fixture: links to their groups.
    const setup = [...byTestId('not-configured')!.querySelectorAll('a')];
    expect(setup.map((a) => a.getAttribute('href'))).toEqual([
      '/admin/settings?group=automation',
      '/admin/settings?group=payment',
      '/admin/settings?group=messenger',
    ]);
    // The nav counts share the reply.
    expect(TestBed.inject(AdminCounts).count('pendingRequests')).toBe(4);
  });

  it('should say all clear when nothing waits', async () => {
    await render();
    expect(byTestId('all-clear')!.textContent).toContain('All clear');
    expect(byTestId('tile-undecryptable')).toBeNull();
    expect(byTestId('tile-pendingRequests')!.classList).toContain('calm');
    expect(root.textContent).toContain('No membership ends this week.');
  });

  it('should ask for the members whose membership ends in the next seven local days', () => {
    const today = new Date(2026, 11, 28, 23, 30);
    expect(dayAfter(today, 7)).toBe('2027-01-04');
    expect(expiringQuery(today)).toEqual({
      status: 'active',
      expiresAfter: '2026-12-28',
      expiresBefore: '2027-01-04',
      sort: 'expiresAt',
      order: 'asc',
    });
    // Without the users total (its load failed) the tile is left out, not shown as zero.
    const ids = attentionTiles(aSystemInfo(), null, today).map((tile) => tile.id);
    expect(ids).not.toContain('expiringSoon');
  });
});
