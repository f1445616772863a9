import { HttpClient } from '@angular/common/http';
import { Injectable, inject, signal } from '@angular/core';
import type { SystemInfo } from '@usher/contracts';
import { firstValueFrom } from 'rxjs';
import { checkReply } from '../api/check-reply';

/** What a navigation entry can count (issue 14: counts in the nav). */
export type NavCount = 'pendingRequests' | 'undecryptableSettings';

/** How long the counts are reused before an admin page asks again. */
export const COUNTS_MAX_AGE_MS = 60_000;

/** The count for a nav entry from `GET /admin/system/info`. */
export function navCount(info: SystemInfo | null, name: NavCount): number {
  if (!info) return 0;
  switch (name) {
    case 'pendingRequests':
      return info.requests.pending;
    case 'undecryptableSettings':
      return info.settings.undecryptable;
  }
}

/**
 * The counts an operator checks first (`GET /admin/system/info`, 20-api.md §6): the admin nav
 * shows some of them and the admin overview all. Loaded on demand and reused for a minute; a
 * failed load keeps the last counts, since they are a hint, not the page's content.
 */
@Injectable({ providedIn: 'root' })
export class AdminCounts {
  private readonly http = inject(HttpClient);
  readonly info = signal<SystemInfo | null>(null);
  private loadedAt = 0;
  private loading: Promise<SystemInfo | null> | null = null;

  count(name: NavCount): number {
    return navCount(this.info(), name);
  }

  /** Loads unless the counts are fresh (or `force`); resolves with the counts it has. */
  refresh(force = false, now = Date.now()): Promise<SystemInfo | null> {
    if (!force && this.info() && now - this.loadedAt < COUNTS_MAX_AGE_MS) {
      return Promise.resolve(this.info());
    }
    this.loading ??= this.fetch(now)
      // Keep what we had: the nav must not fail because a count did not load.
      .catch(() => this.info())
      .finally(() => (this.loading = null));
    return this.loading;
  }

  /** Loads now and throws on failure (the admin overview shows it); the nav shares the result. */
  async fetch(now = Date.now()): Promise<SystemInfo> {
    const reply = await firstValueFrom(this.http.get<SystemInfo>('/api/v1/admin/system/info'));
    const info = await checkReply('systemInfoSchema', reply);
    this.info.set(info);
    this.loadedAt = now;
    return info;
  }
}
