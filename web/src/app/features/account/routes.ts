import type { Routes } from '@angular/router';

export default [
  { path: '', title: 'account.title', loadComponent: () => import('./account') },
] satisfies Routes;
