import type { Routes } from '@angular/router';

export default [
  { path: '', title: 'devices.title', loadComponent: () => import('./devices-page') },
] satisfies Routes;
