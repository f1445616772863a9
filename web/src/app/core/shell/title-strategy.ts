import { Injectable, effect, inject, signal } from '@angular/core';
import { Title } from '@angular/platform-browser';
import { type RouterStateSnapshot, TitleStrategy } from '@angular/router';
import { LiveAnnouncer } from '@angular/cdk/a11y';
import { TranslocoService } from '@jsverse/transloco';
import { SiteStore } from '../site/site-store';
import { LanguageSwitch } from '../i18n/language';

/**
 * Route `title`s are translation keys. The document title reads "{page} · {siteName}" and is
 * re-rendered when the language or the site name changes; the page name is also announced.
 */
@Injectable({ providedIn: 'root' })
export class TranslatedTitleStrategy extends TitleStrategy {
  private readonly title = inject(Title);
  private readonly transloco = inject(TranslocoService);
  private readonly site = inject(SiteStore);
  private readonly language = inject(LanguageSwitch);
  private readonly announcer = inject(LiveAnnouncer);
  private readonly key = signal<string | null>(null);

  constructor() {
    super();
    effect(() => {
      const key = this.key();
      this.language.active(); // re-render on language change
      const siteName = this.site.site().siteName;
      const page = key ? this.transloco.translate(key) : null;
      this.title.setTitle(page ? `${page} · ${siteName}` : siteName);
    });
  }

  override updateTitle(snapshot: RouterStateSnapshot): void {
    const key = this.buildTitle(snapshot) ?? null;
    const first = this.key() === null;
    this.key.set(key);
    // Screen readers hear where a navigation landed; the first load reads the page anyway.
    if (key && !first) void this.announcer.announce(this.transloco.translate(key), 'polite');
  }
}
