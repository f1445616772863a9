import type { Routes } from '@angular/router';

export default [
  { path: '', title: 'requests.title', loadComponent: () => import('./my-requests') },
  {
    path: 'new',
    title: 'requests.newRequest.title',
    loadComponent: () => import('./new-request'),
  },
] satisfies Routes;
