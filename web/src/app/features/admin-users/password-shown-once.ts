import { Clipboard } from '@angular/cdk/clipboard';
import { ChangeDetectionStrategy, Component, inject, input } from '@angular/core';
import { MatButton } from '@angular/material/button';
import { MatIcon } from '@angular/material/icon';
import { TranslocoDirective } from '@jsverse/transloco';
import { Notifier } from '../../core/notifier';

/** A generated password, shown once with Copy (60-web.md §4.3): it is never shown again. */
@Component({
  selector: 'app-password-shown-once',
  imports: [MatButton, MatIcon, TranslocoDirective],
  template: `
    <div class="once" *transloco="let t" data-testid="generated-password-box">
      <p>{{ t('adminUsers.passwordOnce') }}</p>
      <p class="secret" data-testid="generated-password">{{ password() }}</p>
      <button mat-stroked-button type="button" (click)="copy()">
        <mat-icon aria-hidden="true" svgIcon="content_copy" />
        {{ t('common.copy') }}
      </button>
    </div>
  `,
  styles: `
    .once {
      padding: 12px 16px;
      border-radius: 12px;
      background: var(--usher-warning-container);
      color: var(--usher-on-warning-container);
    }
    p {
      margin: 0 0 8px;
    }
    .secret {
      font-family: ui-monospace, 'Cascadia Mono', 'DejaVu Sans Mono', monospace;
      font-size: 1.25rem;
      overflow-wrap: anywhere;
      user-select: all;
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class PasswordShownOnce {
  private readonly clipboard = inject(Clipboard);
  private readonly notifier = inject(Notifier);
  readonly password = input.required<string>();

  protected copy(): void {
    if (this.clipboard.copy(this.password())) this.notifier.show('common.copied');
  }
}
