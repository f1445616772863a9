import { HttpTestingController } from '@angular/common/http/testing';
import { type ComponentFixture, TestBed } from '@angular/core/testing';
import { Router } from '@angular/router';
import { aUser, refusal } from '../../../testing/fixtures';
import { byTestId, clickOn, flushAndRender, typeInto } from '../../../testing/dom';
import { provideTestApp } from '../../../testing/providers';
import { Notifier } from '../../core/notifier';
import { SessionStore } from '../../core/session/session-store';
import Register from './register';
import type { RegisterMode } from './registration-api';

const OPEN: RegisterMode = {
  mode: 'open',
  defaultTrialDays: 7,
  emailVerification: false,
  allowedEmailDomains: [],
  usernamePattern: '^[A-Za-z0-9_]+$',
  passwordMinLength: 8,
};
const INVITE: RegisterMode = { ...OPEN, mode: 'invite', defaultTrialDays: null };
const CODE = 'ABCDEF0123456789';

// The first render compiles Material and the page; slow on a shared 2-core CI machine.
jest.setTimeout(20_000);
describe('Register', () => {
  let fixture: ComponentFixture<Register>;
  let http: HttpTestingController;
  let router: Router;
  let notifier: { show: jest.Mock };

  async function render(mode: RegisterMode | null, code?: string): Promise<HTMLElement> {
    notifier = { show: jest.fn() };
    TestBed.configureTestingModule({
      providers: [...provideTestApp(), { provide: Notifier, useValue: notifier }],
    });
    http = TestBed.inject(HttpTestingController);
    router = TestBed.inject(Router);
    jest.spyOn(router, 'navigateByUrl').mockResolvedValue(true);
    fixture = TestBed.createComponent(Register);
    if (code) fixture.componentRef.setInput('code', code);
    await fixture.whenStable();
    const modeRequest = http.expectOne('/api/v1/auth/register/mode');
    if (mode) modeRequest.flush(mode);
    else modeRequest.flush(...refusal(500, 'INTERNAL_ERROR'));
    await flushAndRender(fixture);
    return fixture.nativeElement as HTMLElement;
  }

  function fill(root: HTMLElement, password = 'a-good-password'): void {
    typeInto(root, 'register-username', 'new_member');
    typeInto(root, 'register-email', 'new@example.com');
    typeInto(root, 'register-password', password);
    typeInto(root, 'register-confirm', password);
  }

  afterEach(() => {
    // The poster wall behind the page asks for its posters once the page is idle.
    for (const wall of http.match('/api/v1/public/poster-wall')) wall.flush({ posters: [] });
    http.verify();
    jest.useRealTimers();
  });

  it('should show the trial in open mode without an invite-code field', async () => {
    const root = await render(OPEN);
    expect(byTestId(root, 'register-lead')!.textContent).toContain('You get a 7 day trial.');
    expect(byTestId(root, 'register-code')).toBeNull();
    expect(byTestId(root, 'register-send-code')).toBeNull();
  });

  it('should register, store the session and greet with the expiry date', async () => {
    const root = await render(OPEN);
    fill(root);
    await clickOn(fixture, root, 'register-submit');
    const post = http.expectOne('/api/v1/auth/register');
    expect(post.request.body).toEqual({
      username: 'new_member',
      email: 'new@example.com',
      password: 'a-good-password',
    });
    const user = aUser({ username: 'new_member', expiresAt: '2030-01-31T00:00:00.000Z' });
    post.flush({ token: 'new-token', expiresAt: '2030-01-01T00:00:00.000Z', user });
    await flushAndRender(fixture);
    const session = TestBed.inject(SessionStore);
    expect(session.token()).toBe('new-token');
    expect(session.me()?.username).toBe('new_member');
    expect(notifier.show).toHaveBeenCalledWith('register.welcome', { date: 'Jan 31, 2030' });
    // A new member lands on the setup flow (issue 36).
    expect(router.navigateByUrl).toHaveBeenCalledWith('/console/overview/welcome');
  });

  it('should send nothing while the form is invalid', async () => {
    const root = await render(OPEN);
    fill(root, 'short');
    typeInto(root, 'register-confirm', 'other');
    await clickOn(fixture, root, 'register-submit');
    http.expectNone('/api/v1/auth/register');
    expect(root.textContent).toContain('At least 8 characters');
    expect(root.textContent).toContain('The passwords do not match');
  });

  it('should refuse a username outside the pattern before asking the API', async () => {
    const root = await render(OPEN);
    fill(root);
    typeInto(root, 'register-username', 'bad name!');
    await clickOn(fixture, root, 'register-submit');
    http.expectNone('/api/v1/auth/register');
  });

  it('should put a taken username on its field', async () => {
    const root = await render(OPEN);
    fill(root);
    await clickOn(fixture, root, 'register-submit');
    http.expectOne('/api/v1/auth/register').flush(...refusal(409, 'USERNAME_TAKEN'));
    await flushAndRender(fixture);
    expect(byTestId(root, 'register-username-error')!.textContent).toContain(
      'That username is already taken.',
    );
    expect(TestBed.inject(SessionStore).signedIn()).toBe(false);
    expect(router.navigateByUrl).not.toHaveBeenCalled();
  });

  it('should explain a media-server failure as "nothing was saved"', async () => {
    const root = await render(OPEN);
    fill(root);
    await clickOn(fixture, root, 'register-submit');
    http
      .expectOne('/api/v1/auth/register')
      .flush(...refusal(502, 'UPSTREAM_UNAVAILABLE', 'x', { system: 'media_server' }));
    await flushAndRender(fixture);
    expect(byTestId(root, 'register-error')!.textContent).toContain('nothing was saved');
  });

  it('should say registration is not open when the media server is not configured', async () => {
    const root = await render(OPEN);
    fill(root);
    await clickOn(fixture, root, 'register-submit');
    http
      .expectOne('/api/v1/auth/register')
      .flush(...refusal(503, 'NOT_CONFIGURED', 'x', { system: 'media_server' }));
    await flushAndRender(fixture);
    expect(byTestId(root, 'register-error')!.textContent).toContain("Registration isn't open yet");
  });

  describe('invite mode', () => {
    it('should require the code and send nothing without it', async () => {
      const root = await render(INVITE);
      expect(byTestId(root, 'register-code')).not.toBeNull();
      fill(root);
      await clickOn(fixture, root, 'register-submit');
      http.expectNone('/api/v1/auth/register');
    });

    it('should preview what a valid code grants', async () => {
      const root = await render(INVITE);
      typeInto(root, 'register-code', CODE.toLowerCase());
      await clickOn(fixture, root, 'register-check-code');
      const check = http.expectOne('/api/v1/auth/register/validate-code');
      expect(check.request.body).toEqual({ code: CODE });
      check.flush({ valid: true, days: 30, expiresAt: null, remainingUses: 4 });
      await flushAndRender(fixture);
      expect(byTestId(root, 'register-code-preview')!.textContent).toContain(
        'Valid: grants 30 days, 4 uses left.',
      );
    });

    it('should show why a code is refused on the code field', async () => {
      const root = await render(INVITE);
      typeInto(root, 'register-code', CODE);
      await clickOn(fixture, root, 'register-check-code');
      http
        .expectOne('/api/v1/auth/register/validate-code')
        .flush(...refusal(422, 'REDEEM_CODE_INVALID', 'x', { reason: 'exhausted' }));
      await flushAndRender(fixture);
      expect(byTestId(root, 'register-code-error')!.textContent).toContain(
        'This code has been used up.',
      );
      expect(byTestId(root, 'register-code-preview')).toBeNull();
    });

    it('should pre-fill and check a code from the link, then send it with the registration', async () => {
      const root = await render(INVITE, CODE);
      http
        .expectOne('/api/v1/auth/register/validate-code')
        .flush({ valid: true, days: 14, expiresAt: null, remainingUses: 1 });
      await flushAndRender(fixture);
      expect((byTestId(root, 'register-code') as HTMLInputElement).value).toBe(CODE);
      fill(root);
      await clickOn(fixture, root, 'register-submit');
      const post = http.expectOne('/api/v1/auth/register');
      expect(post.request.body).toMatchObject({ code: CODE, username: 'new_member' });
      post.flush(...refusal(422, 'REDEEM_CODE_INVALID', 'x', { reason: 'expired' }));
      await flushAndRender(fixture);
      expect(byTestId(root, 'register-code-error')!.textContent).toContain(
        'This code has expired.',
      );
    });
  });

  describe('e-mail verification', () => {
    const VERIFY: RegisterMode = {
      ...OPEN,
      emailVerification: true,
      allowedEmailDomains: ['example.com'],
    };

    it('should send a code and count down before it can be sent again', async () => {
      jest.useFakeTimers({ advanceTimers: true });
      const root = await render(VERIFY);
      expect(root.textContent).toContain('Allowed domains: example.com');
      typeInto(root, 'register-email', 'new@example.com');
      await clickOn(fixture, root, 'register-send-code');
      const send = http.expectOne('/api/v1/auth/register/send-code');
      expect(send.request.body).toEqual({ email: 'new@example.com' });
      send.flush({ expiresAt: '2030-01-01T00:10:00.000Z', resendAfterSeconds: 60 });
      await flushAndRender(fixture);
      const button = byTestId(root, 'register-send-code') as HTMLButtonElement;
      expect(button.textContent).toContain('Send again in 60 s');
      expect(button.disabled).toBe(true);
      expect(root.textContent).toContain('A 6-digit code is on its way to new@example.com.');
      jest.advanceTimersByTime(61_000);
      await fixture.whenStable();
      expect(button.textContent).toContain('Send again');
      expect(button.textContent).not.toContain(' in ');
      expect(button.disabled).toBe(false);
    });

    it('should warn about a domain outside the list and require the e-mail code', async () => {
      const root = await render(VERIFY);
      fill(root);
      typeInto(root, 'register-email', 'new@elsewhere.org');
      await fixture.whenStable();
      expect(root.textContent).toContain('Addresses from that domain are not accepted.');
      typeInto(root, 'register-email', 'new@example.com');
      await clickOn(fixture, root, 'register-submit');
      http.expectNone('/api/v1/auth/register');
      typeInto(root, 'register-email-code', '123456');
      await clickOn(fixture, root, 'register-submit');
      const post = http.expectOne('/api/v1/auth/register');
      expect(post.request.body).toMatchObject({ emailCode: '123456' });
      post.flush(...refusal(422, 'EMAIL_CODE_INVALID'));
      await flushAndRender(fixture);
      expect(byTestId(root, 'register-email-code-error')).not.toBeNull();
    });
  });

  it('should offer Retry when the rules cannot be loaded', async () => {
    const root = await render(null);
    expect(root.textContent).toContain('Retry');
    expect(byTestId(root, 'register-form')).toBeNull();
  });
});
