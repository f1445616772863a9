import type { Routes } from '@angular/router';

export default [
  { path: '', title: 'lifecycle.title', loadComponent: () => import('./lifecycle-page') },
] satisfies Routes;
