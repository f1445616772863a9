import type { Routes } from '@angular/router';

export default [
  { path: '', title: 'sharing.title', loadComponent: () => import('./sharing-page') },
] satisfies Routes;
