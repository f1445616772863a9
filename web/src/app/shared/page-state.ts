import { ChangeDetectionStrategy, Component, inject, input, output } from '@angular/core';
import { MatAnchor, MatButton } from '@angular/material/button';
import { MatIcon } from '@angular/material/icon';
import { RouterLink } from '@angular/router';
import { TranslocoDirective } from '@jsverse/transloco';
import type { ErrorText } from '../core/api/error-text';
import { SessionStore } from '../core/session/session-store';

/**
 * `ErrorState` (60-web.md §1): the message, the reference and Retry. A missing configuration
 * (503 `NOT_CONFIGURED`) also offers admins "Open settings" on the group that fixes it.
 */
@Component({
  selector: 'app-error-state',
  imports: [MatAnchor, MatButton, MatIcon, RouterLink, TranslocoDirective],
  template: `
    <div class="state error" role="alert" *transloco="let t">
      <mat-icon aria-hidden="true" svgIcon="error" />
      <div class="text">
        <p>{{ error().message }}</p>
        @if (error().reference) {
          <p class="reference">{{ error().reference }}</p>
        }
      </div>
      @if (error().settingsGroup && isAdmin()) {
        <a
          mat-stroked-button
          routerLink="/admin/settings"
          [queryParams]="{ group: error().settingsGroup }"
          data-testid="open-settings"
          >{{ t('common.openSettings') }}</a
        >
      }
      <button mat-stroked-button type="button" (click)="retry.emit()">
        {{ t('common.retry') }}
      </button>
    </div>
  `,
  styleUrl: './page-state.scss',
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class ErrorState {
  protected readonly isAdmin = inject(SessionStore).isAdmin;
  readonly error = input.required<ErrorText>();
  readonly retry = output();
}

/** `EmptyState` (60-web.md §1): an icon and one sentence; the main action is projected. */
@Component({
  selector: 'app-empty-state',
  imports: [MatIcon],
  template: `
    <div class="state empty">
      <mat-icon aria-hidden="true" [svgIcon]="icon()" />
      <p class="text">{{ message() }}</p>
      <ng-content />
    </div>
  `,
  styleUrl: './page-state.scss',
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class EmptyState {
  readonly icon = input('inbox');
  /** Already translated by the caller. */
  readonly message = input.required<string>();
}
