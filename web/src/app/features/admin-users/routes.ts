import type { Routes } from '@angular/router';

export default [
  { path: '', title: 'adminUsers.title', loadComponent: () => import('./users-page') },
  { path: ':id', title: 'adminUsers.detailTitle', loadComponent: () => import('./user-detail') },
] satisfies Routes;
