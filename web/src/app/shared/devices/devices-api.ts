import { HttpClient } from '@angular/common/http';
import { Injectable, inject } from '@angular/core';
import type {
  BlacklistCreated,
  BlacklistEntry,
  Device,
  DeviceAction,
  DeviceStats,
  LogoutOutcome,
} from '@usher/contracts';
import type { Page } from '@usher/contracts/values';
import { firstValueFrom } from 'rxjs';
import { checkPage, checkReply } from '../../core/api/check-reply';
import { abortWith } from '../../core/api/context';
import { filterParams } from '../query-params';

/** `GET /admin/devices` filters (20-api.md §6 "Devices"); empty strings are left out. */
export interface DeviceQuery {
  userId: string;
  client: string;
  blacklisted: '' | 'true' | 'false';
  page: number;
  pageSize: number;
}

/** What a blacklist entry is added with. */
export interface BlacklistFields {
  clientName: string;
  reason: string;
  logoutNow: boolean;
}

const BASE = '/api/v1/admin/devices';

/** Devices signed in to the media server, the client blacklist and the action log. */
@Injectable({ providedIn: 'root' })
export class DevicesApi {
  private readonly http = inject(HttpClient);

  async list(
    query: Partial<DeviceQuery> & { page: number; pageSize: number },
    abort?: AbortSignal,
  ): Promise<Page<Device>> {
    const reply = await firstValueFrom(
      this.http.get<Page<Device>>(BASE, { params: filterParams(query), ...abortWith(abort) }),
    );
    return checkPage('deviceSchema', reply);
  }

  async stats(): Promise<DeviceStats> {
    const reply = await firstValueFrom(this.http.get<DeviceStats>(`${BASE}/stats`));
    return checkReply('deviceStatsSchema', reply);
  }

  /** Signs one device out; `Device.id` (not the reported DeviceId), URL-encoded. */
  async logout(device: Pick<Device, 'id'>): Promise<void> {
    await firstValueFrom(this.http.post(`${BASE}/${encodeURIComponent(device.id)}/logout`, {}));
  }

  async blacklist(page: number, pageSize: number): Promise<Page<BlacklistEntry>> {
    const reply = await firstValueFrom(
      this.http.get<Page<BlacklistEntry>>(`${BASE}/blacklist`, {
        params: filterParams({ page, pageSize }),
      }),
    );
    return checkPage('blacklistEntrySchema', reply);
  }

  /** 201 `{entry, loggedOut, failed}`; 409 `BLACKLIST_ENTRY_EXISTS`. */
  async addToBlacklist(fields: BlacklistFields): Promise<BlacklistCreated> {
    const reply = await firstValueFrom(
      this.http.post<BlacklistCreated>(`${BASE}/blacklist`, fields),
    );
    return checkReply('blacklistCreatedSchema', reply);
  }

  async removeFromBlacklist(id: string): Promise<void> {
    await firstValueFrom(this.http.delete(`${BASE}/blacklist/${encodeURIComponent(id)}`));
  }

  /** Signs out every device of a blacklisted client now (one request). */
  async enforceBlacklist(): Promise<LogoutOutcome> {
    const reply = await firstValueFrom(
      this.http.post<LogoutOutcome>(`${BASE}/blacklist/logout`, {}),
    );
    return checkReply('logoutOutcomeSchema', reply);
  }

  async actions(page: number, pageSize: number): Promise<Page<DeviceAction>> {
    const reply = await firstValueFrom(
      this.http.get<Page<DeviceAction>>(`${BASE}/actions`, {
        params: filterParams({ page, pageSize }),
      }),
    );
    return checkPage('deviceActionSchema', reply);
  }
}
