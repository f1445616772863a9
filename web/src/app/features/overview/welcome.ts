import { ChangeDetectionStrategy, Component, computed, inject, signal } from '@angular/core';
import { MatAnchor } from '@angular/material/button';
import { MatButtonToggle, MatButtonToggleGroup } from '@angular/material/button-toggle';
import { MatIcon } from '@angular/material/icon';
import { RouterLink } from '@angular/router';
import { TranslocoDirective } from '@jsverse/transloco';
import { SessionStore } from '../../core/session/session-store';
import { ErrorState } from '../../shared/page-state';
import { MediaLinks } from '../../shared/media-link';
import { ServerAddress } from './server-address';

export const PLATFORMS = ['phone', 'tv', 'computer', 'browser'] as const;
export type Platform = (typeof PLATFORMS)[number];
type Kind = 'emby' | 'jellyfin';

/** The apps worth naming per platform (product names, the same in every language). */
export const APPS: Record<Kind, Record<Platform, readonly string[]>> = {
  jellyfin: {
    phone: ['Jellyfin (Android)', 'Swiftfin (iPhone, iPad)', 'Findroid', 'Infuse'],
    tv: ['Jellyfin (Android TV, Fire TV)', 'Swiftfin (Apple TV)', 'Jellyfin (Roku)', 'Infuse'],
    computer: ['Jellyfin Media Player (Windows, macOS, Linux)'],
    browser: [],
  },
  emby: {
    phone: ['Emby (iPhone, iPad)', 'Emby (Android)'],
    tv: ['Emby (Android TV, Fire TV)', 'Emby (Apple TV)', 'Emby (Samsung, LG, Roku)'],
    computer: ['Emby Theater (Windows, macOS)'],
    browser: [],
  },
};

/** Where each server lists every official app. */
export const DOWNLOADS: Record<Kind, string> = {
  jellyfin: 'https://jellyfin.org/downloads/',
  emby: 'https://emby.media/download.html',
};

/** The platform this browser runs on, as a first guess for the app list. */
export function guessPlatform(userAgent: string): Platform {
  if (/Android TV|AFT|SMART-TV|Tizen|Web0S|AppleTV/i.test(userAgent)) return 'tv';
  if (/iPhone|iPad|iPod|Android/i.test(userAgent)) return 'phone';
  return 'computer';
}

const ICONS: Record<Platform, string> = {
  phone: 'smartphone',
  tv: 'tv',
  computer: 'computer',
  browser: 'language',
};

/**
 * `/console/overview/welcome` (issue 36): where a new member lands after signing up, and the
 * overview's server card links to. Three steps, as Wizarr walks its invitees: get an app for the
 * device at hand, connect it to the server (address with Copy and a QR code), then ask for a first
 * title; the username they sign in with is shown where they need it.
 */
@Component({
  selector: 'app-welcome',
  imports: [
    MatAnchor,
    MatButtonToggle,
    MatButtonToggleGroup,
    MatIcon,
    RouterLink,
    TranslocoDirective,
    ErrorState,
    ServerAddress,
  ],
  providers: [MediaLinks],
  templateUrl: './welcome.html',
  styleUrl: './welcome.scss',
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export default class Welcome {
  protected readonly me = inject(SessionStore).me;
  protected readonly platforms = PLATFORMS;
  protected readonly icons = ICONS;
  protected readonly platform = signal<Platform>(guessPlatform(navigator.userAgent));
  protected readonly server = inject(MediaLinks).server;
  protected readonly kind = computed<Kind>(() => this.server.value()?.kind ?? 'emby');
  protected readonly apps = computed(() => APPS[this.kind()][this.platform()]);
  protected readonly downloads = computed(() => DOWNLOADS[this.kind()]);
}
