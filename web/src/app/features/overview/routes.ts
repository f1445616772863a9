import type { Routes } from '@angular/router';

export default [
  { path: '', title: 'overview.title', loadComponent: () => import('./overview') },
  // The setup flow a new member lands on after signing up (issue 36).
  { path: 'welcome', title: 'welcome.title', loadComponent: () => import('./welcome') },
] satisfies Routes;
