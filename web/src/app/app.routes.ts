import type { Routes } from '@angular/router';
import { authGuard, passwordChangeGuard, roleGuard } from './core/session/guards';

/**
 * Top-level routes (60-web.md §3). Public pages are one lazy feature at `''`; the console and
 * admin areas share one lazily loaded shell (a pathless parent), so moving between them keeps
 * the navigation in place. Features not built yet are simply absent and fall to "not found".
 */
export const routes: Routes = [
  { path: '', loadChildren: () => import('./features/public/routes') },
  {
    path: '',
    loadComponent: () => import('./core/shell/console-shell'),
    canActivate: [authGuard],
    canActivateChild: [passwordChangeGuard],
    children: [
      {
        path: 'console',
        children: [
          // `/console` is only a prefix; the overview is its landing page (60-web.md §3).
          { path: '', pathMatch: 'full', redirectTo: 'overview' },
          { path: 'overview', loadChildren: () => import('./features/overview/routes') },
          { path: 'requests', loadChildren: () => import('./features/requests/routes') },
          { path: 'calendar', loadChildren: () => import('./features/calendar/routes') },
          { path: 'rankings', loadChildren: () => import('./features/rankings/routes') },
          // The seed calls requests "subscriptions"; its links keep working (60-web.md §3).
          { path: 'subscriptions', pathMatch: 'full', redirectTo: 'requests' },
          { path: 'account', loadChildren: () => import('./features/account/routes') },
          { path: 'renewal', loadChildren: () => import('./features/renewal/routes') },
          { path: 'portrait', loadChildren: () => import('./features/portrait/routes') },
        ],
      },
      {
        path: 'admin',
        canActivate: [roleGuard('admin')],
        children: [
          { path: 'settings', loadChildren: () => import('./features/admin-settings/routes') },
          { path: 'requests', loadChildren: () => import('./features/admin-requests/routes') },
          { path: 'users', loadChildren: () => import('./features/admin-users/routes') },
          {
            path: 'redeem-codes',
            loadChildren: () => import('./features/admin-redeem-codes/routes'),
          },
          { path: 'plans', loadChildren: () => import('./features/admin-plans/routes') },
          { path: 'payments', loadChildren: () => import('./features/admin-payments/routes') },
          { path: 'lifecycle', loadChildren: () => import('./features/admin-lifecycle/routes') },
          {
            path: 'media-quality',
            loadChildren: () => import('./features/admin-media-quality/routes'),
          },
          { path: 'devices', loadChildren: () => import('./features/admin-devices/routes') },
          { path: 'sharing', loadChildren: () => import('./features/admin-sharing/routes') },
          { path: 'jobs', loadChildren: () => import('./features/admin-jobs/routes') },
          { path: 'backups', loadChildren: () => import('./features/admin-backups/routes') },
          { path: 'playback', loadChildren: () => import('./features/admin-playback/routes') },
          { path: 'sessions', loadChildren: () => import('./features/admin-sessions/routes') },
          { path: 'audit', loadChildren: () => import('./features/admin-audit/routes') },
          { path: '', loadChildren: () => import('./features/admin/routes') },
        ],
      },
    ],
  },
  {
    path: '**',
    title: 'notFound.title',
    loadComponent: () => import('./features/not-found/not-found'),
  },
];
