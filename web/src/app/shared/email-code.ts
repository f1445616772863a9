import {
  ChangeDetectionStrategy,
  Component,
  DestroyRef,
  inject,
  input,
  output,
  signal,
} from '@angular/core';
import { TranslocoDirective } from '@jsverse/transloco';
import type { EmailCodeSent } from '@usher/contracts';
import { ApiError, retryAfterSeconds } from '../core/api/api-error';
import { Countdown } from './countdown';
import { SubmitButton } from './submit-button';

/**
 * "Send code" to an e-mail address, as registration and the e-mail change both do: one send at a
 * time, the address it went to, and the resend countdown (from `resendAfterSeconds`, or from a
 * 429's `retryAfterSeconds`, 60 s when it gives none).
 */
export class EmailCodeFlow {
  readonly sending = signal(false);
  /** The address the last code went to ("Code sent to …"); null before the first. */
  readonly sentTo = signal<string | null>(null);
  readonly resend: Countdown;

  constructor(
    destroyRef: DestroyRef,
    private readonly sendCode: (email: string) => Promise<EmailCodeSent>,
  ) {
    this.resend = new Countdown(destroyRef);
  }

  /**
   * Sends a code to `email` unless one is being sent or the countdown runs. A refusal is handed
   * to `fail` (the form shows it on its field or its error line). Resolves whether it was sent.
   */
  async send(email: string, fail: (error: unknown) => void): Promise<boolean> {
    if (this.sending() || this.resend.remaining() > 0) return false;
    this.sending.set(true);
    try {
      const sent = await this.sendCode(email);
      this.sentTo.set(email);
      this.resend.start(sent.resendAfterSeconds);
      return true;
    } catch (error) {
      // A refusal is the form's to show; a rate limit also starts the wait it names.
      if (error instanceof ApiError && error.code === 'RATE_LIMITED') {
        this.resend.start(retryAfterSeconds(error) ?? 60);
      }
      fail(error);
      return false;
    } finally {
      this.sending.set(false);
    }
  }

  /** Forgets the sent address (the form was cancelled). */
  reset(): void {
    this.sentTo.set(null);
  }
}

/** An `EmailCodeFlow` for a component; call it in a field initialiser (it injects). */
export function emailCodeFlow(send: (email: string) => Promise<EmailCodeSent>): EmailCodeFlow {
  return new EmailCodeFlow(inject(DestroyRef), send);
}

/** The "Send code" / "Resend in N s" / "Resend code" button of an `EmailCodeFlow`. */
@Component({
  selector: 'app-email-code-button',
  imports: [TranslocoDirective, SubmitButton],
  template: `
    <app-submit-button
      *transloco="let t"
      type="button"
      appearance="outlined"
      [busy]="flow().sending()"
      [disabled]="flow().resend.remaining() > 0"
      (click)="pressed.emit()"
      [testId]="testId()"
    >
      @if (flow().resend.remaining() > 0) {
        {{ t('register.resendIn', { seconds: flow().resend.remaining() }) }}
      } @else {
        {{ t(flow().sentTo() ? 'register.resendCode' : 'register.sendCode') }}
      }
    </app-submit-button>
  `,
  styles: `
    :host {
      display: inline-flex;
      flex-direction: column;
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class EmailCodeButton {
  readonly flow = input.required<EmailCodeFlow>();
  readonly testId = input<string>();
  /** The button was pressed (and is not busy or counting down). */
  readonly pressed = output();
}
