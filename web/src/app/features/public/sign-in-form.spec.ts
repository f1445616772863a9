import { HttpTestingController } from '@angular/common/http/testing';
import { type ComponentFixture, TestBed } from '@angular/core/testing';
import { Router } from '@angular/router';
import { TranslocoService } from '@jsverse/transloco';
import { TOKEN_REPLY, aUser, errorBody, settle } from '../../../testing/fixtures';
import { provideTestApp } from '../../../testing/providers';
import { SiteStore, SITE_DEFAULTS } from '../../core/site/site-store';
import { SignInForm } from './sign-in-form';

describe('SignInForm', () => {
  let fixture: ComponentFixture<SignInForm>;
  let http: HttpTestingController;
  let router: Router;

  async function render(redirect?: string): Promise<HTMLElement> {
    TestBed.configureTestingModule({ providers: provideTestApp() });
    http = TestBed.inject(HttpTestingController);
    router = TestBed.inject(Router);
    jest.spyOn(router, 'navigate').mockResolvedValue(true);
    jest.spyOn(router, 'navigateByUrl').mockResolvedValue(true);
    fixture = TestBed.createComponent(SignInForm);
    if (redirect !== undefined) fixture.componentRef.setInput('redirect', redirect);
    await fixture.whenStable();
    return fixture.nativeElement as HTMLElement;
  }

  const byTestId = (root: HTMLElement, id: string) =>
    root.querySelector<HTMLElement>(`[data-testid="${id}"]`);

  function type(root: HTMLElement, id: string, value: string): void {
    const input = byTestId(root, id) as HTMLInputElement;
    input.value = value;
    input.dispatchEvent(new Event('input'));
  }

  async function submit(root: HTMLElement): Promise<void> {
    byTestId(root, 'sign-in')!.click();
    await fixture.whenStable();
  }

  /** Types the name and the password, then presses Sign in. */
  async function signIn(root: HTMLElement, username: string, password: string): Promise<void> {
    type(root, 'username', username);
    type(root, 'password', password);
    await submit(root);
  }

  afterEach(() => http.verify());

  it('should sign in and go to the overview', async () => {
    const root = await render();
    await signIn(root, ' alice ', 'secret-pw');
    const req = http.expectOne('/api/v1/auth/login');
    expect(req.request.body).toEqual({ username: 'alice', password: 'secret-pw' });
    req.flush({ ...TOKEN_REPLY, user: aUser() });
    await settle();
    expect(router.navigateByUrl).toHaveBeenCalledWith('/console/overview');
  });

  it.each([
    ['a safe redirect target', '/console/account', '/console/account'],
    ['the overview, not a redirect to another site', '//evil.example/', '/console/overview'],
  ])('should go to %s after signing in', async (_case, redirect, landing) => {
    const root = await render(redirect);
    await signIn(root, 'alice', 'secret-pw');
    http.expectOne('/api/v1/auth/login').flush({ ...TOKEN_REPLY, user: aUser() });
    await settle();
    expect(router.navigateByUrl).toHaveBeenCalledWith(landing);
  });

  it('should route a forced password change to the password card, keeping the redirect', async () => {
    const root = await render('/console/overview');
    await signIn(root, 'admin', 'temporary-pw');
    http.expectOne('/api/v1/auth/login').flush({
      ...TOKEN_REPLY,
      user: aUser({ role: 'admin', mustChangePassword: true }),
    });
    await settle();
    expect(router.navigate).toHaveBeenCalledWith(['/console/account'], {
      queryParams: { section: 'password', redirect: '/console/overview' },
    });
    expect(router.navigateByUrl).not.toHaveBeenCalled();
  });

  it('should show the translated error for a wrong password and stay', async () => {
    const root = await render();
    await signIn(root, 'alice', 'wrong');
    http
      .expectOne('/api/v1/auth/login')
      .flush(errorBody('INVALID_CREDENTIALS', 'Invalid credentials'), {
        status: 401,
        statusText: 'Unauthorized',
      });
    await settle();
    await fixture.whenStable();
    expect(byTestId(root, 'sign-in-error')!.textContent).toContain('Wrong username or password.');
    expect((byTestId(root, 'password') as HTMLInputElement).value).toBe('');
    expect(router.navigateByUrl).not.toHaveBeenCalled();
    expect(router.navigate).not.toHaveBeenCalled();
  });

  it('should show the error in Chinese when that is the active language', async () => {
    const root = await render();
    TestBed.inject(TranslocoService).setActiveLang('zh-CN');
    await signIn(root, 'alice', 'wrong');
    http
      .expectOne('/api/v1/auth/login')
      .flush(errorBody('ACCOUNT_DISABLED'), { status: 403, statusText: 'Forbidden' });
    await settle();
    await fixture.whenStable();
    expect(byTestId(root, 'sign-in-error')!.textContent).toContain(
      '此账户已被停用，请联系管理员。',
    );
  });

  it('should count down and block the button after a rate limit', async () => {
    jest.useFakeTimers({ doNotFake: ['setTimeout', 'queueMicrotask'] });
    try {
      const root = await render();
      type(root, 'username', 'alice');
      type(root, 'password', 'wrong');
      await submit(root);
      http
        .expectOne('/api/v1/auth/login')
        .flush(errorBody('RATE_LIMITED', 'x', { retryAfterSeconds: 3 }), {
          status: 429,
          statusText: 'Too Many Requests',
        });
      await settle();
      await fixture.whenStable();
      const button = byTestId(root, 'sign-in') as HTMLButtonElement;
      expect(byTestId(root, 'sign-in-error')!.textContent).toContain('Try again in 3 s.');
      expect(button.disabled).toBe(true);
      jest.advanceTimersByTime(1000);
      await fixture.whenStable();
      expect(byTestId(root, 'sign-in-error')!.textContent).toContain('Try again in 2 s.');
      jest.advanceTimersByTime(2000);
      await fixture.whenStable();
      expect(button.disabled).toBe(false);
    } finally {
      jest.useRealTimers();
    }
  });

  it('should send nothing when the form is empty', async () => {
    const root = await render();
    await submit(root);
    http.expectNone('/api/v1/auth/login');
    expect(root.textContent).toContain('Required');
  });

  it('should show the first-start hint only while setup is pending', async () => {
    const root = await render();
    expect(byTestId(root, 'setup-hint')).toBeNull();
    TestBed.inject(SiteStore).site.set({ ...SITE_DEFAULTS, setupPending: true });
    await fixture.whenStable();
    expect(byTestId(root, 'setup-hint')!.textContent).toContain('TEMPORARY PASSWORD');
  });

  it('should offer the forgot-password link only when e-mail is set up', async () => {
    const root = await render();
    expect(root.querySelector('a[href="/forgot-password"]')).toBeNull();
    expect(root.textContent).toContain('send /resetpw to the community bot');
    TestBed.inject(SiteStore).site.set({ ...SITE_DEFAULTS, emailEnabled: true });
    await fixture.whenStable();
    expect(root.querySelector('a[href="/forgot-password"]')).not.toBeNull();
  });
});
