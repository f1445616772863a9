import { HttpTestingController } from '@angular/common/http/testing';
import { type ComponentFixture, TestBed } from '@angular/core/testing';
import type { AdminUser } from '@usher/contracts';
import { aUser, storeSession } from '../../../testing/fixtures';
import { NO_MATERIAL_ANIMATIONS, byTestId, flushAndRender } from '../../../testing/dom';
import { provideTestApp } from '../../../testing/providers';
import { SessionStore } from '../../core/session/session-store';
import UserDetail from './user-detail';

const USER_ID = '01936f6e-8a7b-7c3d-9e4f-0000000000b2';
const ADMIN_ID = '01936f6e-8a7b-7c3d-9e4f-0000000000ad';

function aMember(overrides: Partial<AdminUser> = {}): AdminUser {
  return {
    ...aUser({
      id: USER_ID,
      username: 'iris',
      email: 'iris@example.com',
      expiresAt: '2030-05-01T00:00:00.000Z',
    }),
    mediaDisabled: false,
    mediaAccessDisabled: false,
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

/** The user detail's header and actions (issue 14: labelled chips, grouped actions, delete apart). */
describe('UserDetail header and actions', () => {
  jest.setTimeout(30_000);

  let fixture: ComponentFixture<UserDetail>;

  async function render(user: AdminUser, tab?: string) {
    storeSession();
    TestBed.configureTestingModule({ providers: [...provideTestApp(), NO_MATERIAL_ANIMATIONS] });
    TestBed.inject(SessionStore).me.set(aUser({ id: ADMIN_ID, role: 'admin' }));
    const http = TestBed.inject(HttpTestingController);
    fixture = TestBed.createComponent(UserDetail);
    fixture.componentRef.setInput('id', user.id);
    if (tab) fixture.componentRef.setInput('tab', tab);
    await fixture.whenStable();
    http.expectOne(`/api/v1/admin/users/${user.id}`).flush({
      ...user,
      counts: { redemptions: 0, payments: 0, activeRequests: 0 },
    });
    await flushAndRender(fixture);
    // The profile tab's side lists are not what this is about.
    for (const req of http.match((r) => r.url !== '/api/v1/admin/notices')) {
      req.flush({ data: [], total: 0, page: 1, pageSize: 10 });
    }
    await flushAndRender(fixture);
    return fixture.nativeElement as HTMLElement;
  }

  /** The HTTP controller of the current test, for a tab's own list. */
  const http = () => TestBed.inject(HttpTestingController);

  it('should name the user, role and e-mail, and label each status chip', async () => {
    const root = await render(aMember());
    const header = byTestId(root, 'user-detail-header')!;
    expect(header.querySelector('h1')!.textContent).toContain('iris');
    expect(header.querySelector('.sub')!.textContent).toContain('Member');
    expect(header.querySelector('.sub')!.textContent).toContain('iris@example.com');
    const labels = [...header.querySelectorAll('dt')].map((dt) => dt.textContent!.trim());
    expect(labels).toEqual(['Sign-in', 'Membership', 'Media']);
    // The membership chip carries its end date.
    expect(header.querySelector('.until')!.textContent).toContain('2030');
  });

  it('should group the actions and set delete apart with what it does', async () => {
    const root = await render(aMember());
    const groups = [...root.querySelectorAll('.action-groups [role="group"]')];
    expect(groups.map((g) => g.getAttribute('aria-label'))).toEqual([
      'Account',
      'Membership and media',
    ]);
    expect(groups[1]!.querySelector('[data-testid="detail-extend"]')).not.toBeNull();
    const danger = byTestId(root, 'danger-zone')!;
    expect(danger.textContent).toContain('cannot be undone');
    expect(danger.querySelector('button')!.textContent).toContain('Delete');
    for (const group of groups) expect(group.textContent).not.toContain('Delete');
  });

  it('should list what the lifecycle sent the member on the Notices tab (issue 29)', async () => {
    const root = await render(aMember(), 'notices');
    const list = http().expectOne((r) => r.url === '/api/v1/admin/notices');
    expect(list.request.params.get('userId')).toBe(USER_ID);
    list.flush({
      data: [
        {
          id: '01936f6e-8a7b-7c3d-9e4f-0000000000e1',
          userId: USER_ID,
          username: 'iris',
          kind: 'expiry_reminder',
          channel: 'messenger',
          status: 'skipped',
          attempts: 0,
          detail: 'not linked to the bot',
          expiresAt: '2030-05-01T00:00:00.000Z',
          days: 3,
          createdAt: '2030-04-28T00:15:00.000Z',
          updatedAt: '2030-04-28T00:15:00.000Z',
        },
      ],
      total: 1,
      page: 1,
      pageSize: 10,
    });
    await flushAndRender(fixture);
    const row = root.querySelector('[data-notice]')!;
    expect(row.getAttribute('data-status')).toBe('skipped');
    expect(row.textContent).toContain('Renewal reminder');
    expect(row.textContent).toContain('Telegram');
    expect(row.textContent).toContain('not linked to the bot');
    // The member's own page has no member column.
    expect(
      root.querySelector('[data-testid="user-notices-table"] a[href^="/admin/users"]'),
    ).toBeNull();
  });

  it('should not read the notices until their tab is open', async () => {
    await render(aMember());
    http().expectNone((r) => r.url === '/api/v1/admin/notices');
  });
});
