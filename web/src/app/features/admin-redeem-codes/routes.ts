import type { Routes } from '@angular/router';

export default [
  { path: '', title: 'redeemCodes.title', loadComponent: () => import('./redeem-codes-page') },
] satisfies Routes;
