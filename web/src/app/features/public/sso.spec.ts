import { HttpTestingController } from '@angular/common/http/testing';
import { TestBed } from '@angular/core/testing';
import { Router } from '@angular/router';
import { TOKEN_REPLY, aUser, errorBody, settle } from '../../../testing/fixtures';
import { provideTestApp } from '../../../testing/providers';
import { SessionStore } from '../../core/session/session-store';
import { browserLocation } from '../../core/session/sso';
import { SiteStore, SITE_DEFAULTS } from '../../core/site/site-store';
import Login from './login';
import SsoLanding from './sso-landing';

const SSO_ON = {
  enabled: true,
  label: 'Sign in with Authentik',
  autoRedirect: false,
  passwordLogin: true,
};

describe('single sign-on pages', () => {
  let http: HttpTestingController;
  let router: Router;
  let assign: jest.SpyInstance;

  beforeEach(() => {
    TestBed.configureTestingModule({ providers: provideTestApp() });
    http = TestBed.inject(HttpTestingController);
    router = TestBed.inject(Router);
    jest.spyOn(router, 'navigateByUrl').mockResolvedValue(true);
    assign = jest.spyOn(browserLocation, 'assign').mockImplementation(() => undefined);
  });
  afterEach(() => {
    http.verify();
    assign.mockRestore();
  });

  const byTestId = (root: HTMLElement, id: string) =>
    root.querySelector<HTMLElement>(`[data-testid="${id}"]`);

  async function renderLogin(sso: typeof SSO_ON, inputs: Record<string, unknown> = {}) {
    TestBed.inject(SiteStore).site.set({ ...SITE_DEFAULTS, sso });
    const fixture = TestBed.createComponent(Login);
    for (const [name, value] of Object.entries(inputs)) fixture.componentRef.setInput(name, value);
    await fixture.whenStable();
    return fixture.nativeElement as HTMLElement;
  }

  it('should offer "Sign in with …" next to the password form, keeping the redirect', async () => {
    const root = await renderLogin(SSO_ON, { redirect: '/console/requests' });
    const button = byTestId(root, 'sso-sign-in') as HTMLAnchorElement;
    expect(button.textContent).toContain('Sign in with Authentik');
    expect(button.getAttribute('href')).toBe(
      '/api/v1/auth/oidc/start?redirect=%2Fconsole%2Frequests',
    );
    expect(byTestId(root, 'password')).not.toBeNull();
    expect(assign).not.toHaveBeenCalled();
  });

  it('should show no SSO button while single sign-on is off', async () => {
    const root = await renderLogin({ ...SSO_ON, enabled: false });
    expect(byTestId(root, 'sso-sign-in')).toBeNull();
    expect(byTestId(root, 'password')).not.toBeNull();
  });

  it('should hide the password form when passwords are off, unless ?local=1', async () => {
    const off = { ...SSO_ON, passwordLogin: false };
    const root = await renderLogin(off);
    expect(byTestId(root, 'password')).toBeNull();
    expect(byTestId(root, 'password-off')).not.toBeNull();
    const local = await renderLogin(off, { local: '1' });
    expect(byTestId(local, 'password')).not.toBeNull();
  });

  it('should go straight to the provider on auto-redirect', async () => {
    await renderLogin({ ...SSO_ON, autoRedirect: true }, { redirect: '/console/calendar' });
    expect(assign).toHaveBeenCalledWith('/api/v1/auth/oidc/start?redirect=%2Fconsole%2Fcalendar');
  });

  it('should stay on the password form with ?local=1 despite auto-redirect', async () => {
    const root = await renderLogin({ ...SSO_ON, autoRedirect: true }, { local: '1' });
    expect(assign).not.toHaveBeenCalled();
    expect(byTestId(root, 'password')).not.toBeNull();
  });

  async function renderLanding(inputs: Record<string, string>) {
    const fixture = TestBed.createComponent(SsoLanding);
    for (const [name, value] of Object.entries(inputs)) fixture.componentRef.setInput(name, value);
    await fixture.whenStable();
    return { fixture, root: fixture.nativeElement as HTMLElement };
  }

  it('should exchange the one-time code for a session and open the redirect', async () => {
    await renderLanding({ code: 'c'.repeat(43) });
    const req = http.expectOne('/api/v1/auth/oidc/exchange');
    expect(req.request.body).toEqual({ code: 'c'.repeat(43) });
    req.flush({ ...TOKEN_REPLY, user: aUser(), redirect: '/console/calendar' });
    await settle();
    expect(TestBed.inject(SessionStore).token()).toBe(TOKEN_REPLY.token);
    expect(router.navigateByUrl).toHaveBeenCalledWith('/console/calendar', { replaceUrl: true });
  });

  it('should ask for the invite code once and send the same code again with it', async () => {
    const { fixture, root } = await renderLanding({ code: 'c'.repeat(43) });
    http
      .expectOne('/api/v1/auth/oidc/exchange')
      .flush(errorBody('REGISTRATION_CODE_REQUIRED', 'x', { username: 'alice' }), {
        status: 422,
        statusText: 'Unprocessable',
      });
    await settle();
    await fixture.whenStable();
    expect(byTestId(root, 'sso-invite')!.textContent).toContain('alice');
    expect(router.navigateByUrl).not.toHaveBeenCalled();
    const input = byTestId(root, 'sso-invite-code') as HTMLInputElement;
    input.value = ' ABCDEF0123456789 ';
    input.dispatchEvent(new Event('input'));
    byTestId(root, 'sso-invite-submit')!.click();
    await fixture.whenStable();
    const req = http.expectOne('/api/v1/auth/oidc/exchange');
    expect(req.request.body).toEqual({ code: 'c'.repeat(43), inviteCode: 'ABCDEF0123456789' });
    req.flush({ ...TOKEN_REPLY, user: aUser(), redirect: null });
    await settle();
    expect(router.navigateByUrl).toHaveBeenCalledWith('/console/overview', { replaceUrl: true });
  });

  it('should explain a failed callback without calling the API', async () => {
    const { fixture, root } = await renderLanding({ error: 'SSO_REGISTRATION_CLOSED' });
    await fixture.whenStable();
    expect(byTestId(root, 'sso-error')!.textContent).toContain('new accounts are not created');
    expect(byTestId(root, 'sso-retry')!.getAttribute('href')).toBe('/api/v1/auth/oidc/start');
    http.expectNone('/api/v1/auth/oidc/exchange');
  });
});
