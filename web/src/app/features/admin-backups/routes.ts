import type { Routes } from '@angular/router';

export default [
  { path: '', title: 'adminBackups.title', loadComponent: () => import('./backups-page') },
] satisfies Routes;
