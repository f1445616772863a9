import { Injectable, inject } from '@angular/core';
import { TranslocoService } from '@jsverse/transloco';
import type { SettingGroup } from '@usher/contracts';
import { ApiError, NETWORK_ERROR, errorSystem, retryAfterSeconds } from './api-error';
import { settingsGroupFor } from './settings-group';

/** A failure as the UI shows it: one translated sentence, plus the request id when useful. */
export interface ErrorText {
  message: string;
  /** "Reference: …" line, or null when the message already says everything. */
  reference: string | null;
  /**
   * 503 `NOT_CONFIGURED` only: the settings group that fixes it, for the admins' "Open
   * settings" link (60-web.md §1 "How the app treats errors").
   */
  settingsGroup?: SettingGroup;
}

/**
 * Codes whose translated message is the whole story (the user can act on it without support),
 * so no reference line is added. Everything else shows "Reference: requestId" (60-web.md §1).
 */
const SELF_EXPLANATORY = new Set([
  NETWORK_ERROR,
  'INVALID_CREDENTIALS',
  'ACCOUNT_DISABLED',
  'CURRENT_PASSWORD_INVALID',
  'PASSWORD_UNCHANGED',
  'PASSWORD_CHANGE_REQUIRED',
  'RATE_LIMITED',
  'UNAUTHENTICATED',
  'TOKEN_INVALID',
  'TOKEN_REVOKED',
  'FORBIDDEN',
  'NOT_CONFIGURED',
]);

/** Turns any thrown value into translated text: `errors.<CODE>`, else the API's own message. */
@Injectable({ providedIn: 'root' })
export class ErrorTexts {
  private readonly transloco = inject(TranslocoService);

  describe(error: unknown): ErrorText {
    if (!(error instanceof ApiError)) {
      return { message: this.transloco.translate('errors.UNKNOWN'), reference: null };
    }
    const message = this.message(error);
    const reference =
      error.requestId && !SELF_EXPLANATORY.has(error.code)
        ? this.transloco.translate('errors.reference', { id: error.requestId })
        : null;
    const group = error.code === 'NOT_CONFIGURED' ? settingsGroupFor(errorSystem(error)) : null;
    return group ? { message, reference, settingsGroup: group } : { message, reference };
  }

  private message(error: ApiError): string {
    const key = `errors.${error.code}`;
    if (!this.has(key)) {
      // Unknown to this build (a newer API): the API's English text beats a raw code.
      return error.message || this.transloco.translate('errors.UNKNOWN');
    }
    const system = errorSystem(error);
    const systemName =
      system && this.has(`systems.${system}`) ? `systems.${system}` : 'systems.unknown';
    return this.transloco.translate(key, {
      seconds: retryAfterSeconds(error) ?? 60,
      system: this.transloco.translate(systemName),
    });
  }

  private has(key: string): boolean {
    const lang = this.transloco.getActiveLang();
    const translation = this.transloco.getTranslation(lang);
    return typeof translation[key] === 'string';
  }
}
