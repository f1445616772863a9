import { HttpClient } from '@angular/common/http';
import { Injectable, inject } from '@angular/core';
import type {
  EmailCodeSent,
  LoginResponse,
  RegisterMode,
  RegisterRequest,
  UnsubscribeReply,
} from '@usher/contracts';

export type { RegisterMode };
import { firstValueFrom } from 'rxjs';
import { checkReply } from '../../core/api/check-reply';

export interface InviteCodePreview {
  valid: true;
  days: number;
  expiresAt: string | null;
  remainingUses: number;
}

/** The public account routes: registration and the e-mail password reset (20-api.md §4). */
@Injectable({ providedIn: 'root' })
export class RegistrationApi {
  private readonly http = inject(HttpClient);

  /** `GET /auth/register/mode`: the rules the register form follows. */
  async mode(): Promise<RegisterMode> {
    const reply = await firstValueFrom(this.http.get<RegisterMode>('/api/v1/auth/register/mode'));
    return checkReply('registerModeSchema', reply);
  }

  async validateCode(code: string): Promise<InviteCodePreview> {
    const reply = await firstValueFrom(
      this.http.post<InviteCodePreview>('/api/v1/auth/register/validate-code', { code }),
    );
    return checkReply('validateInviteCodeResponseSchema', reply);
  }

  async sendCode(email: string): Promise<EmailCodeSent> {
    const reply = await firstValueFrom(
      this.http.post<EmailCodeSent>('/api/v1/auth/register/send-code', { email }),
    );
    return checkReply('emailCodeSentSchema', reply);
  }

  async register(body: RegisterRequest): Promise<LoginResponse> {
    const reply = await firstValueFrom(
      this.http.post<LoginResponse>('/api/v1/auth/register', body),
    );
    return checkReply('registerResponseSchema', reply);
  }

  async forgotPassword(email: string): Promise<void> {
    await firstValueFrom(this.http.post('/api/v1/auth/password/forgot', { email }));
  }

  async resetPassword(body: { email: string; code: string; newPassword: string }): Promise<void> {
    await firstValueFrom(this.http.post('/api/v1/auth/password/reset', body));
  }

  /** `POST /public/unsubscribe?token=`: stops reminder mails with a mail's signed link. */
  async unsubscribe(token: string): Promise<UnsubscribeReply> {
    const reply = await firstValueFrom(
      this.http.post<UnsubscribeReply>('/api/v1/public/unsubscribe', null, {
        params: { token },
      }),
    );
    return checkReply('unsubscribeReplySchema', reply);
  }
}

/** The host part of an address, lower-cased ('' when there is none yet). */
export function emailDomain(email: string): string {
  const at = email.lastIndexOf('@');
  return at < 0
    ? ''
    : email
        .slice(at + 1)
        .trim()
        .toLowerCase();
}

/** Whether the address's host is allowed (an empty list allows any, 30-settings.md). */
export function domainAllowed(email: string, allowed: readonly string[]): boolean {
  if (allowed.length === 0) return true;
  const domain = emailDomain(email);
  return domain === '' || allowed.includes(domain);
}
