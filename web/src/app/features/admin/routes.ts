import type { Routes } from '@angular/router';

/**
 * `/admin` lands on the admin overview (issue 14: the landing answers "what now?"; 60-web.md §3
 * named the users list, which is one click away in the nav and from each tile).
 */
export default [
  { path: '', pathMatch: 'full', redirectTo: 'overview' },
  {
    path: 'overview',
    title: 'adminOverview.title',
    loadComponent: () => import('./admin-overview'),
  },
] satisfies Routes;
