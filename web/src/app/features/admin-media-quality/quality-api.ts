import { HttpClient, HttpParams } from '@angular/common/http';
import { Injectable, inject } from '@angular/core';
import type { QualityGroupDetail, QualityLibraryList, QualityReport } from '@usher/contracts';
import { firstValueFrom } from 'rxjs';
import { checkReply } from '../../core/api/check-reply';

const BASE = '/api/v1/admin/media-quality/libraries';

/** What `POST …/scan` answers: 202 with the run to poll. */
export interface ScanStarted {
  scanStartedAt: string;
  runId: string;
}

/** The media-quality reports (20-api.md §6 "Playback, sessions, quality"). */
@Injectable({ providedIn: 'root' })
export class QualityApi {
  private readonly http = inject(HttpClient);

  async libraries(): Promise<QualityLibraryList> {
    const reply = await firstValueFrom(this.http.get<QualityLibraryList>(BASE));
    return checkReply('qualityLibraryListSchema', reply);
  }

  /** A library's report, or `all`; the low-quality groups are paged. */
  async report(libraryId: string, page: number, pageSize: number): Promise<QualityReport> {
    const params = new HttpParams().set('page', page).set('pageSize', pageSize);
    const reply = await firstValueFrom(
      this.http.get<QualityReport>(`${BASE}/${encodeURIComponent(libraryId)}`, { params }),
    );
    return checkReply('qualityReportSchema', reply);
  }

  async group(libraryId: string, groupId: string): Promise<QualityGroupDetail> {
    const reply = await firstValueFrom(
      this.http.get<QualityGroupDetail>(
        `${BASE}/${encodeURIComponent(libraryId)}/groups/${encodeURIComponent(groupId)}`,
      ),
    );
    return checkReply('qualityGroupDetailSchema', reply);
  }

  /** 202 `{scanStartedAt, runId}`; 409 `SCAN_IN_PROGRESS` while any scan runs. */
  async scan(libraryId: string): Promise<ScanStarted> {
    const reply = await firstValueFrom(
      this.http.post<ScanStarted>(`${BASE}/${encodeURIComponent(libraryId)}/scan`, {}),
    );
    return checkReply('qualityScanStartedSchema', reply);
  }
}
