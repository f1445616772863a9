import { HttpClient } from '@angular/common/http';
import { Injectable, inject } from '@angular/core';
import type { BackupList } from '@usher/contracts';
import { firstValueFrom } from 'rxjs';
import { checkReply } from '../../core/api/check-reply';

/** Backup files and the `backup` job (docs/operations.md "Backup and restore"). */
@Injectable({ providedIn: 'root' })
export class BackupsApi {
  private readonly http = inject(HttpClient);

  async list(): Promise<BackupList> {
    const reply = await firstValueFrom(this.http.get<BackupList>('/api/v1/admin/backups'));
    return checkReply('backupListSchema', reply);
  }

  /** `POST /admin/backups` → 202 `{runId}`; 409 `JOB_RUNNING` while a backup runs. */
  async runNow(): Promise<string> {
    const reply = await firstValueFrom(
      this.http.post<{ runId: string }>('/api/v1/admin/backups', {}),
    );
    return (await checkReply('runJobResponseSchema', reply)).runId;
  }

  /** The file's bytes, fetched with the session's token (a plain link would carry none). */
  download(name: string): Promise<Blob> {
    return firstValueFrom(
      this.http.get(`/api/v1/admin/backups/${encodeURIComponent(name)}`, {
        responseType: 'blob',
      }),
    );
  }
}
