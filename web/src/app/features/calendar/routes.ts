import type { Routes } from '@angular/router';

export default [
  { path: '', title: 'calendar.title', loadComponent: () => import('./calendar-page') },
] satisfies Routes;
