import type { Routes } from '@angular/router';

export default [
  { path: '', title: 'adminRequests.title', loadComponent: () => import('./request-review') },
] satisfies Routes;
