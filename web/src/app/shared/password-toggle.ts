import { ChangeDetectionStrategy, Component, model } from '@angular/core';
import { MatIconButton } from '@angular/material/button';
import { MatIcon } from '@angular/material/icon';
import { TranslocoDirective } from '@jsverse/transloco';

/**
 * Show/hide for password fields (60-web.md §4.1), placed as the field's suffix:
 * `<app-password-toggle matSuffix [(visible)]="showPassword" />`. A pressed toggle button, so a
 * screen reader says whether the password is shown.
 */
@Component({
  selector: 'app-password-toggle',
  imports: [MatIconButton, MatIcon, TranslocoDirective],
  template: `
    <button
      *transloco="let t"
      mat-icon-button
      type="button"
      (click)="visible.set(!visible())"
      [attr.aria-label]="t(visible() ? 'login.hidePassword' : 'login.showPassword')"
      [attr.aria-pressed]="visible()"
    >
      <mat-icon aria-hidden="true" [svgIcon]="visible() ? 'visibility_off' : 'visibility'" />
    </button>
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class PasswordToggle {
  readonly visible = model(false);
}
