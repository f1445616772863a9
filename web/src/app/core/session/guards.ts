import { inject } from '@angular/core';
import { type CanActivateChildFn, type CanActivateFn, Router } from '@angular/router';
import type { Role } from '@usher/contracts';
import { Notifier } from '../notifier';
import { OVERVIEW_URL, PASSWORD_SECTION_URL, safeRedirect } from './redirect';
import { SessionStore } from './session-store';

/** `/console/**`, `/admin/**`: signed in, else sign-in with a way back (60-web.md §2.2). */
export const authGuard: CanActivateFn = (_route, state) => {
  if (inject(SessionStore).signedIn()) return true;
  const redirect = safeRedirect(state.url);
  return inject(Router).createUrlTree(['/login'], { queryParams: redirect ? { redirect } : {} });
};

/** Public entry pages: someone signed in goes straight to the console. */
export const guestGuard: CanActivateFn = () =>
  inject(SessionStore).signedIn() ? inject(Router).parseUrl(OVERVIEW_URL) : true;

/** Until the forced password change is done, only the account page is reachable. */
export const passwordChangeGuard: CanActivateChildFn = (_route, state) => {
  const session = inject(SessionStore);
  if (!session.mustChangePassword()) return true;
  const path = state.url.split(/[?#]/)[0];
  if (path === '/console/account') return true;
  inject(Notifier).show('session.passwordChangeRequired');
  return inject(Router).parseUrl(PASSWORD_SECTION_URL);
};

/** `/admin/**`: the role must match, else the overview with a short explanation. */
export function roleGuard(role: Role): CanActivateFn {
  return () => {
    if (inject(SessionStore).me()?.role === role) return true;
    inject(Notifier).show('session.adminOnly');
    return inject(Router).parseUrl(OVERVIEW_URL);
  };
}
