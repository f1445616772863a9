import type { Routes } from '@angular/router';

export default [
  { path: '', title: 'portrait.title', loadComponent: () => import('./portrait-page') },
] satisfies Routes;
