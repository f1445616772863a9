import { HttpClient, HttpParams } from '@angular/common/http';
import { Injectable, inject } from '@angular/core';
import type { MediaSyncOutcome, Redemption } from '@usher/contracts';
import type { Page } from '@usher/contracts/values';
import { firstValueFrom } from 'rxjs';
import { checkPage, checkReply } from '../../core/api/check-reply';

/** `POST /me/redeem/validate`: what redeeming would do, nothing written. */
export interface RedeemPreview {
  valid: true;
  days: number;
  codeExpiresAt: string | null;
  newExpiresAt: string;
}

/** `POST /me/redeem`. */
export interface RedeemResult {
  days: number;
  previousExpiresAt: string | null;
  expiresAt: string;
  mediaSync: MediaSyncOutcome;
}

/** The member's renewal routes (20-api.md §5 "Account"). */
@Injectable({ providedIn: 'root' })
export class RenewalApi {
  private readonly http = inject(HttpClient);

  async validate(code: string): Promise<RedeemPreview> {
    const reply = await firstValueFrom(
      this.http.post<RedeemPreview>('/api/v1/me/redeem/validate', { code }),
    );
    return checkReply('redeemPreviewSchema', reply);
  }

  async redeem(code: string): Promise<RedeemResult> {
    const reply = await firstValueFrom(this.http.post<RedeemResult>('/api/v1/me/redeem', { code }));
    return checkReply('redeemResponseSchema', reply);
  }

  async redemptions(page: number, pageSize: number): Promise<Page<Redemption>> {
    const params = new HttpParams().set('page', page).set('pageSize', pageSize);
    const reply = await firstValueFrom(
      this.http.get<Page<Redemption>>('/api/v1/me/redemptions', { params }),
    );
    return checkPage('redemptionSchema', reply);
  }
}

/** A code as history shows it: only the last four characters (60-web.md §4.2). */
export function maskedCode(code: string): string {
  return `••••${code.slice(-4)}`;
}
