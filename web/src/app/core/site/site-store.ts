import { HttpClient } from '@angular/common/http';
import { Injectable, inject, signal } from '@angular/core';
import type { PublicSite } from '@usher/contracts';
import { firstValueFrom } from 'rxjs';
import { checkReply } from '../api/check-reply';

/**
 * What the public pages need before sign-in (`GET /public/site`), loaded once at bootstrap.
 * Until it answers (or if it fails) the defaults below apply, so the shell never waits on it.
 */
export const SITE_DEFAULTS: PublicSite = {
  siteName: 'Usher',
  registrationMode: 'invite',
  emailEnabled: false,
  paymentsEnabled: false,
  mediaServerKind: 'emby',
  version: '',
  setupPending: false,
  tmdbImageBase: 'https://image.tmdb.org/t/p',
  sso: { enabled: false, label: '', autoRedirect: false, passwordLogin: true },
};

@Injectable({ providedIn: 'root' })
export class SiteStore {
  private readonly http = inject(HttpClient);
  readonly site = signal<PublicSite>(SITE_DEFAULTS);

  async load(): Promise<void> {
    try {
      const reply = await firstValueFrom(this.http.get<PublicSite>('/api/v1/public/site'));
      this.site.set(await checkReply('publicSiteSchema', reply));
    } catch {
      // Branding is not worth blocking the app for; an outage shows up on the first real call.
    }
  }
}
