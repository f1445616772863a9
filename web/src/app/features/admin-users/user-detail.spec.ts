import { HttpTestingController } from '@angular/common/http/testing';
import { TestBed } from '@angular/core/testing';
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

  async function render(user: AdminUser) {
    storeSession();
    TestBed.configureTestingModule({ providers: [...provideTestApp(), NO_MATERIAL_ANIMATIONS] });
    TestBed.inject(SessionStore).me.set(aUser({ id: ADMIN_ID, role: 'admin' }));
    const http = TestBed.inject(HttpTestingController);
    const fixture = TestBed.createComponent(UserDetail);
    fixture.componentRef.setInput('id', user.id);
    await fixture.whenStable();
    http.expectOne(`/api/v1/admin/users/${user.id}`).flush({
      ...user,
      counts: { redemptions: 0, payments: 0, activeRequests: 0 },
    });
    await flushAndRender(fixture);
    // The profile tab's side lists are not what this is about.
    for (const req of http.match(() => true)) {
      req.flush({ data: [], total: 0, page: 1, pageSize: 10 });
    }
    await flushAndRender(fixture);
    return fixture.nativeElement as HTMLElement;
  }

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
});
