import type { Routes } from '@angular/router';

export default [
  { path: '', title: 'adminPlayback.title', loadComponent: () => import('./playback-page') },
] satisfies Routes;
