import { ChangeDetectionStrategy, Component, inject, signal } from '@angular/core';
import { MatButton } from '@angular/material/button';
import { MatIcon } from '@angular/material/icon';
import { MatProgressSpinner } from '@angular/material/progress-spinner';
import { TranslocoDirective } from '@jsverse/transloco';
import { SessionStore } from '../session/session-store';

/**
 * Shown instead of the app when the start-up `GET /me` could not reach the API. The token is
 * kept: a server that is down must never sign anyone out (60-web.md §2.1).
 */
@Component({
  selector: 'app-unreachable',
  imports: [MatButton, MatIcon, MatProgressSpinner, TranslocoDirective],
  template: `
    <main class="unreachable" *transloco="let t">
      <mat-icon aria-hidden="true" svgIcon="cloud_off" />
      <h1>{{ t('unreachable.title') }}</h1>
      <p>{{ t('unreachable.body') }}</p>
      <button mat-flat-button type="button" (click)="retry()" [disabled]="retrying()">
        @if (retrying()) {
          <mat-progress-spinner mode="indeterminate" diameter="20" />
        }
        {{ t('common.retry') }}
      </button>
    </main>
  `,
  styles: `
    .unreachable {
      display: grid;
      justify-items: center;
      gap: 8px;
      padding: 64px 24px;
      text-align: center;
    }
    mat-icon {
      font-size: 48px;
      width: 48px;
      height: 48px;
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class Unreachable {
  private readonly session = inject(SessionStore);
  protected readonly retrying = signal(false);

  protected async retry(): Promise<void> {
    this.retrying.set(true);
    await this.session.bootstrap();
    this.retrying.set(false);
  }
}
