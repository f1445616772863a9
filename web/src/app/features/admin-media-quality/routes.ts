import type { Routes } from '@angular/router';

export default [
  { path: '', title: 'quality.title', loadComponent: () => import('./libraries-page') },
  {
    path: ':libraryId',
    title: 'quality.reportTitle',
    loadComponent: () => import('./report-page'),
  },
] satisfies Routes;
