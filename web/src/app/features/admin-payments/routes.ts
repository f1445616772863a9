import type { Routes } from '@angular/router';

export default [
  { path: '', title: 'adminPayments.title', loadComponent: () => import('./payments-page') },
] satisfies Routes;
