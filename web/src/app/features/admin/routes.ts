import type { Routes } from '@angular/router';

/** `/admin` itself has no page: the spec lands administrators on the users list (60-web.md §3). */
export default [{ path: '', pathMatch: 'full', redirectTo: 'users' }] satisfies Routes;
