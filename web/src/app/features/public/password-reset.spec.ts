import { HttpTestingController } from '@angular/common/http/testing';
import { TestBed } from '@angular/core/testing';
import { Router } from '@angular/router';
import { refusal } from '../../../testing/fixtures';
import { byTestId, clickOn, flushAndRender, typeInto } from '../../../testing/dom';
import { provideTestApp } from '../../../testing/providers';
import { Notifier } from '../../core/notifier';
import ForgotPassword from './forgot-password';
import ResetPassword from './reset-password';

// The first render compiles Material and the page; slow on a shared 2-core CI machine.
jest.setTimeout(20_000);
describe('password reset pages', () => {
  let http: HttpTestingController;
  let router: Router;
  let notifier: { show: jest.Mock };

  beforeEach(() => {
    notifier = { show: jest.fn() };
    TestBed.configureTestingModule({
      providers: [...provideTestApp(), { provide: Notifier, useValue: notifier }],
    });
    http = TestBed.inject(HttpTestingController);
    router = TestBed.inject(Router);
    jest.spyOn(router, 'navigateByUrl').mockResolvedValue(true);
  });

  afterEach(() => http.verify());

  describe('ForgotPassword', () => {
    it('should always answer the same and link to the reset page with the address', async () => {
      const fixture = TestBed.createComponent(ForgotPassword);
      const root = fixture.nativeElement as HTMLElement;
      await fixture.whenStable();
      typeInto(root, 'forgot-email', 'someone@example.com');
      await clickOn(fixture, root, 'forgot-submit');
      const post = http.expectOne('/api/v1/auth/password/forgot');
      expect(post.request.body).toEqual({ email: 'someone@example.com' });
      post.flush({ ok: true }, { status: 202, statusText: 'Accepted' });
      await flushAndRender(fixture);
      expect(byTestId(root, 'forgot-sent')!.textContent).toContain(
        'If that address is registered, a code is on its way.',
      );
      expect(byTestId(root, 'forgot-continue')!.getAttribute('href')).toBe(
        '/reset-password?email=someone@example.com',
      );
    });

    it('should send nothing for an invalid address', async () => {
      const fixture = TestBed.createComponent(ForgotPassword);
      const root = fixture.nativeElement as HTMLElement;
      await fixture.whenStable();
      typeInto(root, 'forgot-email', 'not-an-address');
      await clickOn(fixture, root, 'forgot-submit');
      http.expectNone('/api/v1/auth/password/forgot');
      expect(byTestId(root, 'forgot-sent')).toBeNull();
    });

    it('should point to the bot when mail is not configured', async () => {
      const fixture = TestBed.createComponent(ForgotPassword);
      const root = fixture.nativeElement as HTMLElement;
      await fixture.whenStable();
      typeInto(root, 'forgot-email', 'someone@example.com');
      await clickOn(fixture, root, 'forgot-submit');
      http
        .expectOne('/api/v1/auth/password/forgot')
        .flush(...refusal(503, 'NOT_CONFIGURED', 'x', { system: 'smtp' }));
      await flushAndRender(fixture);
      expect(byTestId(root, 'forgot-error')!.textContent).toContain('send /resetpw to the bot');
    });
  });

  describe('ResetPassword', () => {
    async function render() {
      const fixture = TestBed.createComponent(ResetPassword);
      fixture.componentRef.setInput('email', 'someone@example.com');
      fixture.componentRef.setInput('code', '123456');
      await fixture.whenStable();
      return { fixture, root: fixture.nativeElement as HTMLElement };
    }

    it('should pre-fill from the link, reset and go to sign-in', async () => {
      const { fixture, root } = await render();
      expect((byTestId(root, 'reset-email') as HTMLInputElement).value).toBe('someone@example.com');
      typeInto(root, 'reset-password', 'brand-new-pw');
      typeInto(root, 'reset-confirm', 'brand-new-pw');
      await clickOn(fixture, root, 'reset-submit');
      const post = http.expectOne('/api/v1/auth/password/reset');
      expect(post.request.body).toEqual({
        email: 'someone@example.com',
        code: '123456',
        newPassword: 'brand-new-pw',
      });
      post.flush({ ok: true });
      await flushAndRender(fixture);
      expect(notifier.show).toHaveBeenCalledWith('passwordReset.done');
      expect(router.navigateByUrl).toHaveBeenCalledWith('/login');
    });

    it('should show a wrong code on the code field and stay', async () => {
      const { fixture, root } = await render();
      typeInto(root, 'reset-password', 'brand-new-pw');
      typeInto(root, 'reset-confirm', 'brand-new-pw');
      await clickOn(fixture, root, 'reset-submit');
      http.expectOne('/api/v1/auth/password/reset').flush(...refusal(422, 'EMAIL_CODE_INVALID'));
      await flushAndRender(fixture);
      expect(byTestId(root, 'reset-code-error')!.textContent).toContain(
        'That code is wrong or has expired.',
      );
      expect(router.navigateByUrl).not.toHaveBeenCalled();
    });

    it('should send nothing when the passwords differ', async () => {
      const { fixture, root } = await render();
      typeInto(root, 'reset-password', 'brand-new-pw');
      typeInto(root, 'reset-confirm', 'brand-new-px');
      await clickOn(fixture, root, 'reset-submit');
      http.expectNone('/api/v1/auth/password/reset');
    });
  });
});
