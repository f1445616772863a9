import type { HttpTestingController } from '@angular/common/http/testing';
import { type ComponentFixture, TestBed } from '@angular/core/testing';
import { Router } from '@angular/router';
import { TOKEN_REPLY, aUser, errorBody, settle, storeSession } from '../../../testing/fixtures';
import { byTestId, typeInto } from '../../../testing/dom';
import { renderPage } from '../../../testing/page';
import { SessionStore } from '../../core/session/session-store';
import Account from './account';

describe('Account', () => {
  let fixture: ComponentFixture<Account>;
  let http: HttpTestingController;
  let router: Router;
  let session: SessionStore;
  let notifier: { show: jest.Mock };

  async function render(
    user = aUser(),
    inputs: { redirect?: string; signInPassword?: string } = {},
  ): Promise<HTMLElement> {
    storeSession('old-token');
    const page = await renderPage(Account, {
      user,
      inputs: inputs.redirect ? { redirect: inputs.redirect } : {},
      beforeCreate: () => {
        session = TestBed.inject(SessionStore);
        if (inputs.signInPassword) session.signInPassword.set(inputs.signInPassword);
        jest.spyOn(TestBed.inject(Router), 'navigateByUrl').mockResolvedValue(true);
      },
    });
    ({ fixture, http, router, notifier } = page);
    return page.root;
  }

  async function submit(root: HTMLElement): Promise<void> {
    byTestId(root, 'change-password')!.click();
    await fixture.whenStable();
  }

  afterEach(() => {
    // The notifications card reads the preferences (its own spec: notifications-card.spec.ts).
    for (const r of http.match('/api/v1/me/notifications'))
      r.flush({ email: true, messenger: true });
    http.verify();
  });

  it('should show the profile summary and the password card', async () => {
    const root = await render(aUser({ username: 'alice', role: 'user' }));
    expect(byTestId(root, 'profile-username')!.textContent).toContain('alice');
    expect(byTestId(root, 'profile-card')!.textContent).toContain('Member');
    expect(byTestId(root, 'profile-card')!.textContent).toContain('Active');
    expect(byTestId(root, 'password-card')!.textContent).toContain('Change password');
    expect(byTestId(root, 'forced-change')).toBeNull();
  });

  it('should show only the password card, pre-filled, during the forced change', async () => {
    const root = await render(aUser({ role: 'admin', mustChangePassword: true }), {
      signInPassword: 'temporary-pw',
    });
    expect(byTestId(root, 'forced-change')).not.toBeNull();
    expect(byTestId(root, 'profile-card')).toBeNull();
    expect(byTestId(root, 'password-card')!.textContent).toContain('Set a new password');
    expect((byTestId(root, 'current-password') as HTMLInputElement).value).toBe('temporary-pw');
  });

  it('should change the password, store the new token and continue after a forced change', async () => {
    const root = await render(aUser({ role: 'admin', mustChangePassword: true }), {
      signInPassword: 'temporary-pw',
      redirect: '/admin',
    });
    typeInto(root, 'new-password', 'a-new-password');
    typeInto(root, 'confirm-password', 'a-new-password');
    await submit(root);
    const put = http.expectOne('/api/v1/me/password');
    expect(put.request.body).toEqual({
      currentPassword: 'temporary-pw',
      newPassword: 'a-new-password',
    });
    put.flush(TOKEN_REPLY);
    await settle();
    http.expectOne('/api/v1/me').flush(aUser({ role: 'admin', mustChangePassword: false }));
    await settle();
    expect(session.token()).toBe('fresh-token');
    expect(session.mustChangePassword()).toBe(false);
    expect(notifier.show).toHaveBeenCalledWith('account.password.changed');
    expect(router.navigateByUrl).toHaveBeenCalledWith('/admin');
  });

  it('should stay on the page after a voluntary change', async () => {
    const root = await render();
    typeInto(root, 'current-password', 'old-password');
    typeInto(root, 'new-password', 'a-new-password');
    typeInto(root, 'confirm-password', 'a-new-password');
    await submit(root);
    http.expectOne('/api/v1/me/password').flush(TOKEN_REPLY);
    await settle();
    http.expectOne('/api/v1/me').flush(aUser());
    await settle();
    expect(notifier.show).toHaveBeenCalledWith('account.password.changed');
    expect(router.navigateByUrl).not.toHaveBeenCalled();
  });

  it('should show a wrong current password on its field', async () => {
    const root = await render();
    typeInto(root, 'current-password', 'not-it');
    typeInto(root, 'new-password', 'a-new-password');
    typeInto(root, 'confirm-password', 'a-new-password');
    await submit(root);
    http
      .expectOne('/api/v1/me/password')
      .flush(errorBody('CURRENT_PASSWORD_INVALID'), { status: 422, statusText: 'x' });
    await settle();
    await fixture.whenStable();
    expect(byTestId(root, 'current-password-error')!.textContent).toContain(
      'The current password is wrong.',
    );
    expect(session.token()).toBe('old-token');
    expect(notifier.show).not.toHaveBeenCalled();
  });

  it('should send nothing when the confirmation differs or the password is short', async () => {
    const root = await render();
    typeInto(root, 'current-password', 'old-password');
    typeInto(root, 'new-password', 'short');
    typeInto(root, 'confirm-password', 'other');
    await submit(root);
    http.expectNone('/api/v1/me/password');
    expect(root.textContent).toContain('At least 8 characters');
    expect(root.textContent).toContain('The passwords do not match');
  });

  it('should refuse a new password equal to the current one before asking the API', async () => {
    const root = await render();
    typeInto(root, 'current-password', 'same-password');
    typeInto(root, 'new-password', 'same-password');
    typeInto(root, 'confirm-password', 'same-password');
    await submit(root);
    http.expectNone('/api/v1/me/password');
    expect(root.textContent).toContain('The new password must differ from the current one.');
  });
});
