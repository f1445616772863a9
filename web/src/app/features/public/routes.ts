import type { Routes } from '@angular/router';
import { guestGuard } from '../../core/session/guards';

/** Public entry pages; signed-in visitors are sent to the console (60-web.md §2.2). */
export default [
  {
    path: '',
    pathMatch: 'full',
    title: 'home.title',
    canActivate: [guestGuard],
    loadComponent: () => import('./home'),
  },
  {
    path: 'login',
    title: 'login.title',
    canActivate: [guestGuard],
    loadComponent: () => import('./login'),
  },
  {
    // Where single sign-on lands (docs/sso.md): exchanges the one-time code for a session.
    path: 'login/sso',
    title: 'ssoLanding.title',
    canActivate: [guestGuard],
    loadComponent: () => import('./sso-landing'),
  },
  {
    path: 'register',
    title: 'register.title',
    canActivate: [guestGuard],
    loadComponent: () => import('./register'),
  },
  {
    path: 'forgot-password',
    title: 'passwordReset.forgotTitle',
    canActivate: [guestGuard],
    loadComponent: () => import('./forgot-password'),
  },
  {
    path: 'reset-password',
    title: 'passwordReset.resetTitle',
    canActivate: [guestGuard],
    loadComponent: () => import('./reset-password'),
  },
  {
    // Signed in or not: the link in a reminder mail works either way.
    path: 'unsubscribe',
    title: 'unsubscribe.title',
    loadComponent: () => import('./unsubscribe'),
  },
] satisfies Routes;
