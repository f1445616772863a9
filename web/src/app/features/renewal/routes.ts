import type { Routes } from '@angular/router';

export default [
  { path: '', title: 'renewal.title', loadComponent: () => import('./renewal') },
] satisfies Routes;
