import { HttpClient } from '@angular/common/http';
import { Injectable, inject } from '@angular/core';
import type {
  AdminUser,
  AdminUserDetail,
  MediaState,
  MediaSyncOutcome,
  Redemption,
  Role,
} from '@usher/contracts';
import type {
  AdminUserSort,
  BulkUserAction,
  MediaCleanupOutcome,
  MembershipStatus,
  Page,
  SortOrder,
} from '@usher/contracts/values';
import { firstValueFrom } from 'rxjs';
import { checkPage, checkReply } from '../../core/api/check-reply';
import { abortWith } from '../../core/api/context';
import { filterParams } from '../../shared/query-params';

export type MembershipFilter = MembershipStatus;
export type UserSort = AdminUserSort;

/** `GET /admin/users` filters (20-api.md §6 "Users"); empty strings are left out. */
export interface UserQuery {
  search: string;
  role: '' | Role;
  isActive: '' | 'true' | 'false';
  status: '' | MembershipFilter;
  mediaState: '' | MediaState;
  /** Calendar days `YYYY-MM-DD` (business timezone, inclusive), or ''. */
  expiresBefore: string;
  expiresAfter: string;
  sort: UserSort;
  order: SortOrder;
  page: number;
  pageSize: number;
}

export type { AdminUserDetail };

export interface CreateUserRequest {
  username: string;
  email?: string;
  password?: string;
  role: Role;
  expiresAt?: string;
  neverExpires?: true;
  mediaAccessDisabled?: boolean;
  createMediaUser?: boolean;
}

export interface UpdateUserRequest {
  email?: string | null;
  role?: Role;
  expiresAt?: string;
  neverExpires?: true;
}

export type BulkAction = BulkUserAction;

export interface BulkResult {
  id: string;
  ok: boolean;
  code?: string;
}

export type MediaCleanup = MediaCleanupOutcome;

const base = '/api/v1/admin/users';

/** The admin user routes (20-api.md §6 "Users"). */
@Injectable({ providedIn: 'root' })
export class UsersApi {
  private readonly http = inject(HttpClient);

  /** The id of the account named exactly `username` (case ignored), if there is one. */
  async idByName(username: string): Promise<string | null> {
    const found = await this.list({
      search: username,
      role: '',
      isActive: '',
      status: '',
      mediaState: '',
      expiresBefore: '',
      expiresAfter: '',
      sort: 'username',
      order: 'asc',
      page: 1,
      pageSize: 50,
    });
    const wanted = username.toLowerCase();
    return found.data.find((u) => u.username.toLowerCase() === wanted)?.id ?? null;
  }

  async list(query: UserQuery, abort?: AbortSignal): Promise<Page<AdminUser>> {
    const reply = await firstValueFrom(
      this.http.get<Page<AdminUser>>(base, { params: filterParams(query), ...abortWith(abort) }),
    );
    return checkPage('adminUserSchema', reply);
  }

  async get(id: string): Promise<AdminUserDetail> {
    const reply = await firstValueFrom(this.http.get<AdminUserDetail>(`${base}/${id}`));
    return checkReply('adminUserDetailSchema', reply);
  }

  async create(body: CreateUserRequest): Promise<{ user: AdminUser; generatedPassword?: string }> {
    const reply = await firstValueFrom(
      this.http.post<{ user: AdminUser; generatedPassword?: string }>(base, body),
    );
    return checkReply('createAdminUserResponseSchema', reply);
  }

  async update(id: string, body: UpdateUserRequest): Promise<AdminUser> {
    const reply = await firstValueFrom(this.http.patch<AdminUser>(`${base}/${id}`, body));
    return checkReply('adminUserSchema', reply);
  }

  async extend(
    id: string,
    days: number,
  ): Promise<{ user: AdminUser; expiresAt: string; mediaSync: MediaSyncOutcome }> {
    const reply = await firstValueFrom(
      this.http.post<{ user: AdminUser; expiresAt: string; mediaSync: MediaSyncOutcome }>(
        `${base}/${id}/extend`,
        { days },
      ),
    );
    return checkReply('extendUserResponseSchema', reply);
  }

  async setActive(id: string, isActive: boolean): Promise<AdminUser> {
    const reply = await firstValueFrom(
      this.http.put<AdminUser>(`${base}/${id}/active`, { isActive }),
    );
    return checkReply('adminUserSchema', reply);
  }

  async setMediaAccess(
    id: string,
    enabled: boolean,
  ): Promise<{ user: AdminUser; mediaSync: MediaSyncOutcome }> {
    const reply = await firstValueFrom(
      this.http.put<{ user: AdminUser; mediaSync: MediaSyncOutcome }>(
        `${base}/${id}/media-access`,
        { enabled },
      ),
    );
    return checkReply('userMediaSyncResponseSchema', reply);
  }

  async mediaSync(
    id: string,
    policy: boolean,
  ): Promise<{ user: AdminUser; mediaSync: MediaSyncOutcome }> {
    const reply = await firstValueFrom(
      this.http.post<{ user: AdminUser; mediaSync: MediaSyncOutcome }>(`${base}/${id}/media-sync`, {
        policy,
      }),
    );
    return checkReply('userMediaSyncResponseSchema', reply);
  }

  resetPassword(
    id: string,
    body: { newPassword?: string; requireChange: boolean },
  ): Promise<{ generatedPassword?: string }> {
    return firstValueFrom(
      this.http.post<{ generatedPassword?: string }>(`${base}/${id}/reset-password`, body),
    );
  }

  remove(id: string): Promise<{ mediaCleanup: MediaCleanup }> {
    return firstValueFrom(this.http.delete<{ mediaCleanup: MediaCleanup }>(`${base}/${id}`));
  }

  bulk(ids: string[], action: BulkAction, days?: number): Promise<{ results: BulkResult[] }> {
    return firstValueFrom(
      this.http.post<{ results: BulkResult[] }>(`${base}/bulk`, {
        ids,
        action,
        ...(action === 'extend' ? { days } : {}),
      }),
    );
  }

  async redemptions(userId: string, page: number, pageSize: number): Promise<Page<Redemption>> {
    const reply = await firstValueFrom(
      this.http.get<Page<Redemption>>('/api/v1/admin/redemptions', {
        params: filterParams({ userId, page, pageSize }),
      }),
    );
    return checkPage('redemptionSchema', reply);
  }
}
