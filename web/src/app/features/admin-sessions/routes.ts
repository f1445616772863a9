import type { Routes } from '@angular/router';

export default [
  { path: '', title: 'liveSessions.title', loadComponent: () => import('./sessions-page') },
] satisfies Routes;
