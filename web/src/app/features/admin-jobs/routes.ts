import type { Routes } from '@angular/router';

export default [
  { path: '', title: 'jobs.title', loadComponent: () => import('./jobs-page') },
] satisfies Routes;
