import { HttpClient, HttpContext } from '@angular/common/http';
import { Injectable, inject } from '@angular/core';
import type {
  ChangePasswordRequest,
  Locale,
  LoginRequest,
  LoginResponse,
  SsoExchangeRequest,
  SsoExchangeResponse,
  TokenResponse,
  User,
} from '@usher/contracts';
import { firstValueFrom } from 'rxjs';
import { checkReply } from '../api/check-reply';
import { STARTUP_CHECK } from '../api/context';

/** The auth and `/me` routes (20-api.md §4–§5). Types only come from contracts; see check-reply. */
@Injectable({ providedIn: 'root' })
export class AuthApi {
  private readonly http = inject(HttpClient);

  async login(body: LoginRequest): Promise<LoginResponse> {
    const reply = await firstValueFrom(this.http.post<LoginResponse>('/api/v1/auth/login', body));
    return checkReply('loginResponseSchema', reply);
  }

  /** `POST /auth/oidc/exchange`: the one-time code of a single sign-on for a session. */
  async exchangeSso(body: SsoExchangeRequest): Promise<SsoExchangeResponse> {
    const reply = await firstValueFrom(
      this.http.post<SsoExchangeResponse>('/api/v1/auth/oidc/exchange', body),
    );
    return checkReply('ssoExchangeResponseSchema', reply);
  }

  async logout(allDevices: boolean): Promise<void> {
    await firstValueFrom(this.http.post<void>('/api/v1/auth/logout', { allDevices }));
  }

  async me(): Promise<User> {
    return checkReply('userSchema', await firstValueFrom(this.http.get<User>('/api/v1/me')));
  }

  /** `GET /me` at app start, where a 401 only means "the stored token is stale". */
  async meAtStartup(): Promise<User> {
    const context = new HttpContext().set(STARTUP_CHECK, true);
    const reply = await firstValueFrom(this.http.get<User>('/api/v1/me', { context }));
    return checkReply('userSchema', reply);
  }

  async updateLocale(locale: Locale): Promise<User> {
    const reply = await firstValueFrom(this.http.patch<User>('/api/v1/me', { locale }));
    return checkReply('userSchema', reply);
  }

  async changePassword(body: ChangePasswordRequest): Promise<TokenResponse> {
    const reply = await firstValueFrom(this.http.put<TokenResponse>('/api/v1/me/password', body));
    return checkReply('tokenResponseSchema', reply);
  }
}
