import { MatError, MatFormField, MatHint, MatLabel } from '@angular/material/form-field';
import { MatInput } from '@angular/material/input';

/**
 * The standalone pieces of an outlined text field — the field, its label, hint and error, and
 * `matInput` — imported together by the components that have one (still per component: these
 * are the same classes, named once).
 */
export const TEXT_FIELD = [MatFormField, MatLabel, MatHint, MatError, MatInput] as const;

/** A field component's host style: it lays out in its form's column as if written there. */
export const FIELD_AS_IF_INLINE = `
  :host {
    display: contents;
  }
`;
