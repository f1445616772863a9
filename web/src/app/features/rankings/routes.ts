import type { Routes } from '@angular/router';

export default [
  { path: '', title: 'rankings.title', loadComponent: () => import('./rankings-page') },
] satisfies Routes;
