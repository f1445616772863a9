import type { Routes } from '@angular/router';

export default [
  { path: '', title: 'overview.title', loadComponent: () => import('./overview') },
] satisfies Routes;
