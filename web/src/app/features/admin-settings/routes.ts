import { inject } from '@angular/core';
import type { CanDeactivateFn, Routes } from '@angular/router';
import { TranslocoService } from '@jsverse/transloco';
import type SettingsPage from './settings-page';

/** Unsaved edits are lost on leaving, so ask first (60-web.md §4.3). */
export const unsavedSettingsGuard: CanDeactivateFn<SettingsPage> = (page) =>
  !page.hasUnsavedChanges() ||
  confirm(inject(TranslocoService).translate('adminSettings.leaveUnsaved'));

export default [
  {
    path: '',
    title: 'adminSettings.title',
    canDeactivate: [unsavedSettingsGuard],
    loadComponent: () => import('./settings-page'),
  },
] satisfies Routes;
