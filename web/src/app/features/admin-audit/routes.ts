import type { Routes } from '@angular/router';

export default [
  { path: '', title: 'audit.title', loadComponent: () => import('./audit-page') },
] satisfies Routes;
