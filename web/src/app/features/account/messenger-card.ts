import { Clipboard } from '@angular/cdk/clipboard';
import {
  ChangeDetectionStrategy,
  Component,
  DestroyRef,
  computed,
  inject,
  signal,
} from '@angular/core';
import { MatButton } from '@angular/material/button';
import { MatDialog } from '@angular/material/dialog';
import { MatIcon } from '@angular/material/icon';
import { TranslocoDirective } from '@jsverse/transloco';
import { ApiError } from '../../core/api/api-error';
import { ErrorTexts } from '../../core/api/error-text';
import { action } from '../../shared/action';
import { Notifier } from '../../core/notifier';
import { SessionStore } from '../../core/session/session-store';
import { confirmAction } from '../../shared/confirm-dialog';
import { Countdown, minutesSeconds } from '../../shared/countdown';
import { FormError } from '../../shared/form-error';
import { SubmitButton } from '../../shared/submit-button';
import { LocalDatePipe } from '../../shared/local-date';
import { StatusChip } from '../../shared/status-chip';
import { AccountApi, type BindCode } from './account-api';
import { TitledCard } from '../../shared/titled-card';
import { MatCardActions } from '@angular/material/card';

/**
 * Messenger (60-web.md §4.2): bound → "Linked" + Unlink; not bound → a 6-digit code with a live
 * expiry countdown, to be sent to the bot as `/bind CODE`.
 */
@Component({
  selector: 'app-messenger-card',
  imports: [
    MatCardActions,
    TitledCard,
    MatButton,
    MatIcon,
    TranslocoDirective,
    LocalDatePipe,
    StatusChip,
    FormError,
    SubmitButton,
  ],
  template: `
    @if (me(); as me) {
      <app-titled-card
        *transloco="let t"
        data-testid="messenger-card"
        [title]="t('accountCenter.messenger.title')"
      >
        @if (me.messenger.bound) {
          <app-status-chip
            tone="success"
            icon="link"
            [label]="t('accountCenter.messenger.linked')"
          />
          @if (me.messenger.boundAt) {
            <p class="hint">
              {{ t('accountCenter.messenger.since', { date: me.messenger.boundAt | localDate }) }}
            </p>
          }
        } @else if (code(); as code) {
          @if (expiresIn() > 0) {
            <p class="bind-code" data-testid="bind-code">{{ code.code }}</p>
            <p role="timer" aria-live="off" data-testid="bind-code-expiry">
              {{ t('accountCenter.messenger.expiresIn', { time: clock(expiresIn()) }) }}
            </p>
            <p class="explain">
              {{ t('accountCenter.messenger.instruction', { code: code.code }) }}
            </p>
          } @else {
            <p class="hint" role="status" data-testid="bind-code-expired">
              {{ t('accountCenter.messenger.codeExpired') }}
            </p>
          }
        } @else {
          <app-status-chip
            tone="neutral"
            icon="link_off"
            [label]="t('accountCenter.messenger.notLinked')"
          />
          <p class="explain">{{ t('accountCenter.messenger.explain') }}</p>
        }
        <app-form-error [error]="act.error()" />
        <mat-card-actions>
          @if (me.messenger.bound) {
            <button
              mat-stroked-button
              type="button"
              [disabled]="act.busy()"
              (click)="unbind()"
              data-testid="messenger-unbind"
            >
              {{ t('accountCenter.messenger.unlink') }}
            </button>
          } @else {
            @if (code() && expiresIn() > 0) {
              <button mat-stroked-button type="button" (click)="copy()" data-testid="bind-copy">
                <mat-icon aria-hidden="true" svgIcon="content_copy" />
                {{ t('common.copy') }}
              </button>
            }
            <app-submit-button
              type="button"
              [busy]="act.busy()"
              (click)="getCode()"
              testId="bind-get-code"
            >
              {{
                t(code() ? 'accountCenter.messenger.newCode' : 'accountCenter.messenger.getCode')
              }}
            </app-submit-button>
          }
        </mat-card-actions>
      </app-titled-card>
    }
  `,
  styleUrl: './cards.scss',
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class MessengerCard {
  private readonly api = inject(AccountApi);
  private readonly session = inject(SessionStore);
  private readonly dialog = inject(MatDialog);
  private readonly clipboard = inject(Clipboard);
  private readonly notifier = inject(Notifier);
  private readonly errors = inject(ErrorTexts);
  protected readonly me = this.session.me;
  protected readonly code = signal<BindCode | null>(null);
  private readonly countdown = new Countdown(inject(DestroyRef));
  protected readonly expiresIn = computed(() => this.countdown.remaining());
  protected readonly act = action();
  protected readonly clock = minutesSeconds;

  /** `POST /me/messenger/bind-code`: a fresh code replaces any earlier one. */
  protected async getCode(): Promise<void> {
    let stale = false;
    await this.act.run(
      async () => {
        const code = await this.api.bindCode();
        this.code.set(code);
        this.countdown.until(code.expiresAt);
      },
      {
        handle: (error) =>
          (stale = error instanceof ApiError && error.code === 'MESSENGER_ALREADY_BOUND'),
      },
    );
    // Bound from another device meanwhile: show the current state instead of an error.
    if (stale) await this.session.refreshMe().catch(() => undefined);
  }

  protected copy(): void {
    const code = this.code();
    if (code && this.clipboard.copy(`/bind ${code.code}`)) this.notifier.show('common.copied');
  }

  protected async unbind(): Promise<void> {
    const confirmed = await confirmAction(this.dialog, {
      titleKey: 'accountCenter.messenger.unlinkTitle',
      consequenceKeys: ['accountCenter.messenger.unlinkConsequence'],
      confirmKey: 'accountCenter.messenger.unlink',
      destructive: true,
    });
    if (!confirmed) return;
    let stale = false;
    await this.act.run(
      async () => {
        await this.api.unbind();
        this.code.set(null);
        await this.session.refreshMe();
        this.notifier.show('accountCenter.messenger.unlinked');
      },
      {
        handle: (error) =>
          (stale = error instanceof ApiError && error.code === 'MESSENGER_NOT_BOUND'),
      },
    );
    // Unbound from elsewhere meanwhile: show the current state instead of an error.
    if (stale) await this.session.refreshMe().catch(() => undefined);
  }
}
