import { HttpClient } from '@angular/common/http';
import { Injectable, inject } from '@angular/core';
import type {
  AdminUser,
  BindCode,
  EmailCodeSent,
  NotificationPreferences,
  SsoLinkResponse,
  User,
  UserIdentitiesResponse,
} from '@usher/contracts';
import { firstValueFrom } from 'rxjs';
import { checkReply } from '../../core/api/check-reply';
import { abortWith } from '../../core/api/context';

export type { BindCode };

/** One account of `GET /admin/media-server/users` (live from the media server). */
export interface MediaServerAccount {
  mediaUserId: string;
  name: string;
  isAdministrator: boolean;
  isDisabled: boolean;
  boundTo?: { userId: string; username: string };
  available: boolean;
}

/** What the account page needs from `GET /auth/register/mode`. */
export interface AccountRules {
  allowedEmailDomains: string[];
  passwordMinLength: number;
}

/** The account-center routes (20-api.md §5 "Account"). */
@Injectable({ providedIn: 'root' })
export class AccountApi {
  private readonly http = inject(HttpClient);

  rules(): Promise<AccountRules> {
    return firstValueFrom(this.http.get<AccountRules>('/api/v1/auth/register/mode'));
  }

  async sendEmailCode(newEmail: string): Promise<EmailCodeSent> {
    const reply = await firstValueFrom(
      this.http.post<EmailCodeSent>('/api/v1/me/email/send-code', { newEmail }),
    );
    return checkReply('emailCodeSentSchema', reply);
  }

  async changeEmail(newEmail: string, code: string): Promise<User> {
    const reply = await firstValueFrom(this.http.put<User>('/api/v1/me/email', { newEmail, code }));
    return checkReply('userSchema', reply);
  }

  async bindCode(): Promise<BindCode> {
    const reply = await firstValueFrom(
      this.http.post<BindCode>('/api/v1/me/messenger/bind-code', {}),
    );
    return checkReply('bindCodeSchema', reply);
  }

  /** `GET /me/identities`: the provider sign-ins linked to the account (docs/sso.md). */
  async identities(): Promise<UserIdentitiesResponse> {
    const reply = await firstValueFrom(
      this.http.get<UserIdentitiesResponse>('/api/v1/me/identities'),
    );
    return checkReply('userIdentitiesResponseSchema', reply);
  }

  /** `POST /me/identities/link`: the provider address to open (the API set its cookie). */
  async startLink(): Promise<SsoLinkResponse> {
    const reply = await firstValueFrom(
      this.http.post<SsoLinkResponse>('/api/v1/me/identities/link', {}),
    );
    return checkReply('ssoLinkResponseSchema', reply);
  }

  async unlinkIdentity(id: string): Promise<void> {
    await firstValueFrom(this.http.delete(`/api/v1/me/identities/${encodeURIComponent(id)}`));
  }

  async unbind(): Promise<void> {
    await firstValueFrom(this.http.delete('/api/v1/me/messenger'));
  }

  /** Admins only: media-server accounts whose name contains `query` (2–64 characters). */
  async mediaServerUsers(query: string): Promise<MediaServerAccount[]> {
    const reply = await firstValueFrom(
      this.http.get<{ data: MediaServerAccount[] }>('/api/v1/admin/media-server/users', {
        params: { query },
      }),
    );
    return (await checkReply('mediaServerUserListSchema', reply)).data;
  }

  /** Admins only: links the signed-in admin to an existing media-server account. */
  async bindMediaUser(mediaUserId: string): Promise<AdminUser> {
    const reply = await firstValueFrom(
      this.http.put<AdminUser>('/api/v1/admin/current/media-binding', { mediaUserId }),
    );
    return checkReply('adminUserSchema', reply);
  }

  async unbindMediaUser(): Promise<void> {
    await firstValueFrom(this.http.delete('/api/v1/admin/current/media-binding'));
  }

  /** Whether reminders and announcements reach the member by mail and by the bot. */
  async notifications(abort?: AbortSignal): Promise<NotificationPreferences> {
    const reply = await firstValueFrom(
      this.http.get<NotificationPreferences>('/api/v1/me/notifications', abortWith(abort)),
    );
    return checkReply('notificationPreferencesSchema', reply);
  }

  async saveNotifications(body: NotificationPreferences): Promise<NotificationPreferences> {
    const reply = await firstValueFrom(
      this.http.put<NotificationPreferences>('/api/v1/me/notifications', body),
    );
    return checkReply('notificationPreferencesSchema', reply);
  }
}
