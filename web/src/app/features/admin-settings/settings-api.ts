import { HttpClient } from '@angular/common/http';
import { Injectable, inject } from '@angular/core';
import type {
  SettingGroup,
  SettingItem,
  SettingValue,
  SettingsTestReply,
  SettingsTestRequest,
} from '@usher/contracts';
import { firstValueFrom } from 'rxjs';
import { checkReply } from '../../core/api/check-reply';

/** One group of `GET /admin/settings`. */
export interface SettingsGroupView {
  group: SettingGroup;
  label: string;
  testable: boolean;
  items: SettingItem[];
}

export interface MediaLibrary {
  id: string;
  name: string;
  collectionType: string | null;
}

/** `GET /admin/settings`. */
export interface SettingsList {
  groups: SettingsGroupView[];
  encryption: { keyId: string; undecryptable: string[] };
}

/** The settings routes of 20-api.md §6. */
@Injectable({ providedIn: 'root' })
export class SettingsApi {
  private readonly http = inject(HttpClient);

  async list(): Promise<SettingsList> {
    const reply = await firstValueFrom(this.http.get<SettingsList>('/api/v1/admin/settings'));
    return checkReply('settingsListSchema', reply);
  }

  /** Writes the given keys of one group, all or nothing; `null` clears a stored value. */
  async update(
    group: SettingGroup,
    values: Record<string, SettingValue | null>,
  ): Promise<SettingItem[]> {
    const reply = await firstValueFrom(
      this.http.put<{ group: SettingGroup; items: SettingItem[] }>(
        `/api/v1/admin/settings/${group}`,
        { values },
      ),
    );
    return (await checkReply('settingsGroupReplySchema', reply)).items;
  }

  /** Libraries of the media server, for the library-id settings (live, not paginated). */
  async libraries(): Promise<MediaLibrary[]> {
    const reply = await firstValueFrom(
      this.http.get<{ data: MediaLibrary[] }>('/api/v1/admin/media-server/libraries'),
    );
    return (await checkReply('mediaServerLibraryListSchema', reply)).data;
  }

  /** Runs the group's connection checks, with an unsaved draft overlaid when given. */
  async test(group: SettingGroup, body: SettingsTestRequest): Promise<SettingsTestReply> {
    const reply = await firstValueFrom(
      this.http.post<SettingsTestReply>(`/api/v1/admin/settings/${group}/test`, body),
    );
    return checkReply('settingsTestReplySchema', reply);
  }
}
