import { TestBed } from '@angular/core/testing';
import {
  type ActivatedRouteSnapshot,
  Router,
  type RouterStateSnapshot,
  type UrlTree,
} from '@angular/router';
import { aUser, storeSession } from '../../../testing/fixtures';
import { provideTestApp } from '../../../testing/providers';
import { Notifier } from '../notifier';
import { authGuard, guestGuard, passwordChangeGuard, roleGuard } from './guards';
import { safeRedirect } from './redirect';
import { SessionStore } from './session-store';

const route = {} as ActivatedRouteSnapshot;
const state = (url: string) => ({ url }) as RouterStateSnapshot;

describe('guards', () => {
  let notifier: { show: jest.Mock };

  function setUp(): { session: SessionStore; router: Router } {
    notifier = { show: jest.fn() };
    TestBed.configureTestingModule({
      providers: [...provideTestApp(), { provide: Notifier, useValue: notifier }],
    });
    return { session: TestBed.inject(SessionStore), router: TestBed.inject(Router) };
  }

  const run = <T>(fn: () => T): T => TestBed.runInInjectionContext(fn);
  const serialize = (result: unknown) => TestBed.inject(Router).serializeUrl(result as UrlTree);

  describe('authGuard', () => {
    it('should pass with a session', () => {
      storeSession();
      setUp();
      expect(run(() => authGuard(route, state('/console/overview')))).toBe(true);
    });

    it('should send a visitor to sign-in with the way back', () => {
      setUp();
      const result = run(() => authGuard(route, state('/console/calendar?week=2026-05-04')));
      expect(serialize(result)).toBe('/login?redirect=%2Fconsole%2Fcalendar%3Fweek%3D2026-05-04');
    });
  });

  describe('guestGuard', () => {
    it('should let a visitor see the public page', () => {
      setUp();
      expect(run(() => guestGuard(route, state('/login')))).toBe(true);
    });

    it('should send someone signed in to the overview', () => {
      storeSession();
      setUp();
      expect(serialize(run(() => guestGuard(route, state('/login'))))).toBe('/console/overview');
    });
  });

  describe('passwordChangeGuard', () => {
    it('should pass when no change is pending', () => {
      const { session } = setUp();
      session.me.set(aUser());
      expect(run(() => passwordChangeGuard(route, state('/console/overview')))).toBe(true);
      expect(notifier.show).not.toHaveBeenCalled();
    });

    it('should bounce any other page to the password card while a change is pending', () => {
      const { session } = setUp();
      session.me.set(aUser({ mustChangePassword: true }));
      const result = run(() => passwordChangeGuard(route, state('/admin/users')));
      expect(serialize(result)).toBe('/console/account?section=password');
      expect(notifier.show).toHaveBeenCalledWith('session.passwordChangeRequired');
    });

    it('should let the account page through while a change is pending', () => {
      const { session } = setUp();
      session.me.set(aUser({ mustChangePassword: true }));
      const result = run(() =>
        passwordChangeGuard(route, state('/console/account?section=password')),
      );
      expect(result).toBe(true);
      expect(notifier.show).not.toHaveBeenCalled();
    });
  });

  describe('roleGuard', () => {
    it('should pass an admin', () => {
      const { session } = setUp();
      session.me.set(aUser({ role: 'admin' }));
      expect(run(() => roleGuard('admin')(route, state('/admin')))).toBe(true);
    });

    it('should send a member to the overview with an explanation', () => {
      const { session } = setUp();
      session.me.set(aUser({ role: 'user' }));
      const result = run(() => roleGuard('admin')(route, state('/admin')));
      expect(serialize(result)).toBe('/console/overview');
      expect(notifier.show).toHaveBeenCalledWith('session.adminOnly');
    });
  });
});

describe('safeRedirect', () => {
  it.each([
    ['/console/overview', '/console/overview'],
    ['/console/calendar?week=2026-05-04', '/console/calendar?week=2026-05-04'],
    ['/', '/'],
  ])('should accept the in-app path %s', (input, expected) => {
    expect(safeRedirect(input)).toBe(expected);
  });

  it.each([
    [null],
    [undefined],
    [''],
    ['https://evil.example/'],
    ['//evil.example/path'],
    ['/\\evil.example'],
    ['javascript:alert(1)'],
    ['console/overview'],
    ['/\t/evil.example'],
    ['/login'],
    ['/login?redirect=/x'],
  ])('should refuse %p', (input) => {
    expect(safeRedirect(input)).toBeNull();
  });
});
