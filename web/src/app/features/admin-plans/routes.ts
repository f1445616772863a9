import type { Routes } from '@angular/router';

export default [
  { path: '', title: 'adminPlans.title', loadComponent: () => import('./plans-page') },
] satisfies Routes;
