import {
  MatDialogActions,
  MatDialogClose,
  MatDialogContent,
  MatDialogTitle,
} from '@angular/material/dialog';

/**
 * The parts of a Material dialog's template: title, content, actions and the close button. Apart from
 * `TEXT_FIELD` so a page with a form but no dialog (sign-in) does not load the dialog module.
 */
export const DIALOG_PARTS = [
  MatDialogTitle,
  MatDialogContent,
  MatDialogActions,
  MatDialogClose,
] as const;
