import { ChangeDetectionStrategy, Component, inject, signal } from '@angular/core';
import { NonNullableFormBuilder, ReactiveFormsModule, Validators } from '@angular/forms';
import { MatButton } from '@angular/material/button';
import { MatDialogRef } from '@angular/material/dialog';
import { TranslocoDirective, TranslocoService } from '@jsverse/transloco';
import type { AdminUser } from '@usher/contracts';
import { ApiError } from '../../core/api/api-error';
import { action } from '../../shared/action';
import { FormError } from '../../shared/form-error';
import { SubmitButton } from '../../shared/submit-button';
import { AccountApi, type MediaServerAccount } from './account-api';
import { TEXT_FIELD } from '../../shared/form-field';
import { DIALOG_PARTS } from '../../shared/dialog-parts';

/**
 * "Link my media-server account" (60-web.md §4.2, admins): search the media server by name
 * (2–64 characters), pick an available account, confirm. The bound account is never managed
 * by Usher (20-api.md §6), so this only records the link.
 */
@Component({
  selector: 'app-media-link-dialog',
  imports: [
    ReactiveFormsModule,
    MatButton,
    TranslocoDirective,
    FormError,
    SubmitButton,
    ...TEXT_FIELD,
    ...DIALOG_PARTS,
  ],
  template: `
    <ng-container *transloco="let t">
      <h2 mat-dialog-title>{{ t('accountCenter.media.linkTitle') }}</h2>
      <mat-dialog-content>
        <form class="search" [formGroup]="form" (ngSubmit)="search()" novalidate>
          <mat-form-field appearance="outline">
            <mat-label>{{ t('accountCenter.media.searchName') }}</mat-label>
            <input matInput formControlName="query" autocomplete="off" data-testid="media-search" />
            <mat-hint>{{ t('accountCenter.media.searchHint') }}</mat-hint>
            @if (form.controls.query.invalid) {
              <mat-error>{{ t('validation.range', { min: 2, max: 64 }) }}</mat-error>
            }
          </mat-form-field>
          <app-submit-button appearance="outlined" [busy]="act.busy()" testId="media-search-go">
            {{ t('accountCenter.media.search') }}
          </app-submit-button>
        </form>
        @if (results(); as results) {
          @if (results.length === 0) {
            <p class="hint">{{ t('accountCenter.media.noMatch') }}</p>
          } @else {
            <ul class="accounts" data-testid="media-results">
              @for (account of results; track account.mediaUserId) {
                <li>
                  <span class="name">
                    {{ account.name }}
                    @if (account.isAdministrator) {
                      <span class="tag">{{ t('accountCenter.media.serverAdmin') }}</span>
                    }
                  </span>
                  @if (account.available) {
                    <button
                      mat-flat-button
                      type="button"
                      [disabled]="act.busy()"
                      (click)="link(account)"
                      [attr.data-testid]="'media-link-' + account.name"
                    >
                      {{ t('accountCenter.media.linkThis') }}
                    </button>
                  } @else {
                    <span class="hint">
                      @if (account.boundTo) {
                        {{ t('accountCenter.media.boundTo', { name: account.boundTo.username }) }}
                      } @else {
                        {{ t('accountCenter.media.unavailable') }}
                      }
                    </span>
                  }
                </li>
              }
            </ul>
          }
        }
        <app-form-error [error]="act.error()" [icon]="true" [showReference]="false" />
      </mat-dialog-content>
      <mat-dialog-actions align="end">
        <button mat-button type="button" [mat-dialog-close]="null">
          {{ t('dialogs.cancel') }}
        </button>
      </mat-dialog-actions>
    </ng-container>
  `,
  styles: `
    .search {
      display: flex;
      flex-wrap: wrap;
      gap: 8px;
      align-items: flex-start;
      mat-form-field {
        flex: 1 1 220px;
      }
      app-submit-button {
        min-height: 56px;
      }
    }
    .accounts {
      margin: 8px 0 0;
      padding: 0;
      list-style: none;
      li {
        display: flex;
        flex-wrap: wrap;
        gap: 8px;
        align-items: center;
        justify-content: space-between;
        padding: 8px 0;
        border-bottom: 1px solid var(--mat-sys-outline-variant);
      }
    }
    .tag {
      margin-inline-start: 8px;
      font: var(--mat-sys-label-small);
      color: var(--mat-sys-on-surface-variant);
    }
    .hint {
      color: var(--mat-sys-on-surface-variant);
    }
    app-form-error {
      --form-error-margin: 8px 0 0;
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class MediaLinkDialog {
  private readonly api = inject(AccountApi);
  private readonly transloco = inject(TranslocoService);
  private readonly ref = inject<MatDialogRef<MediaLinkDialog, AdminUser | null>>(MatDialogRef);
  protected readonly form = inject(NonNullableFormBuilder).group({
    query: ['', [Validators.required, Validators.minLength(2), Validators.maxLength(64)]],
  });
  /** The search and the link: one busy flag, one error line. */
  protected readonly act = action();
  protected readonly results = signal<MediaServerAccount[] | null>(null);

  protected async search(): Promise<void> {
    const query = this.form.controls.query.value.trim();
    await this.act.submit(this.form, async () =>
      this.results.set(await this.api.mediaServerUsers(query)),
    );
  }

  protected async link(account: MediaServerAccount): Promise<void> {
    await this.act.run(
      async () => this.ref.close(await this.api.bindMediaUser(account.mediaUserId)),
      { handle: (error) => this.explainBound(error) },
    );
  }

  /** Another member has this media account: say who, rather than the generic message. */
  private explainBound(error: unknown): boolean {
    const other = (error as ApiError).details as { username?: unknown } | undefined;
    const bound =
      error instanceof ApiError &&
      error.code === 'MEDIA_USER_ALREADY_BOUND' &&
      typeof other?.username === 'string';
    if (bound) {
      const message = this.transloco.translate('accountCenter.media.boundTo', {
        name: other.username,
      });
      this.act.show({ message, reference: null });
    }
    return bound;
  }
}
