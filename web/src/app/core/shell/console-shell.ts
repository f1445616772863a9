import { BreakpointObserver } from '@angular/cdk/layout';
import {
  ChangeDetectionStrategy,
  Component,
  computed,
  inject,
  signal,
  viewChild,
} from '@angular/core';
import { takeUntilDestroyed, toSignal } from '@angular/core/rxjs-interop';
import { MatButton, MatIconButton } from '@angular/material/button';
import { MatIcon } from '@angular/material/icon';
import {
  MatListItem,
  MatListItemIcon,
  MatListItemMeta,
  MatListItemTitle,
  MatNavList,
} from '@angular/material/list';
import { MatMenu, MatMenuItem } from '@angular/material/menu';
import { MatSidenav, MatSidenavContainer, MatSidenavContent } from '@angular/material/sidenav';
import { MatToolbar } from '@angular/material/toolbar';
import { NavigationEnd, Router, RouterLink, RouterLinkActive, RouterOutlet } from '@angular/router';
import { TranslocoDirective } from '@jsverse/transloco';
import { filter, map } from 'rxjs';
import { BUILD_INFO } from '../../../build-info';
import { LocalDatePipe } from '../../shared/local-date';
import { SessionStore } from '../session/session-store';
import { SiteStore } from '../site/site-store';
import { AdminCounts } from './admin-counts';
import { MenuStandIn } from './deferred-menu';
import { DeferredMenuTrigger } from './deferred-menu-trigger';
import { LanguageMenu } from './language-menu';
import { ADMIN_NAV, CONSOLE_NAV, MEMBER_TABS } from './nav';
import { ThemeMenu } from './theme-menu';

/** Below this width the navigation is a drawer, from it on it is docked (60-web.md §6.2). */
const COMPACT = '(max-width: 959.98px)';
/** At phone widths the member's five main places are a bottom bar (issue 36). */
const PHONE = '(max-width: 599.98px)';

/** Pages that tell an expired member about the end themselves, with their own Renew. */
const OWN_EXPIRY_NOTICE = ['/console/renewal', '/console/overview'];

/** The frame of every `/console` and `/admin` page (60-web.md §1 "Shell"). */
@Component({
  selector: 'app-console-shell',
  imports: [
    MatButton,
    MatIconButton,
    MatIcon,
    MatListItem,
    MatListItemIcon,
    MatListItemMeta,
    MatListItemTitle,
    MatNavList,
    MatMenu,
    MatMenuItem,
    MatSidenav,
    MatSidenavContainer,
    MatSidenavContent,
    MatToolbar,
    RouterLink,
    RouterLinkActive,
    RouterOutlet,
    TranslocoDirective,
    LanguageMenu,
    ThemeMenu,
    MenuStandIn,
    DeferredMenuTrigger,
    LocalDatePipe,
  ],
  templateUrl: './console-shell.html',
  styleUrl: './console-shell.scss',
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export default class ConsoleShell {
  private readonly session = inject(SessionStore);
  private readonly drawer = viewChild<MatSidenav>('drawer');
  /** A click on the user menu's stand-in opens the menu once its code is in. */
  protected readonly openUserMenuOnLoad = signal(false);
  protected readonly site = inject(SiteStore).site;
  protected readonly me = this.session.me;
  protected readonly isAdmin = this.session.isAdmin;
  /** During the forced password change only sign-out and language stay usable (§2.3). */
  protected readonly locked = this.session.mustChangePassword;
  protected readonly expiredOn = computed(() => {
    const me = this.me();
    return me?.isExpired && me.expiresAt ? me.expiresAt : null;
  });
  private readonly router = inject(Router);
  /** The path shown, without query string; follows every navigation. */
  private readonly path = toSignal(
    this.router.events.pipe(
      filter((event) => event instanceof NavigationEnd),
      map((event) => event.urlAfterRedirects.split(/[?#]/, 1)[0]!),
    ),
    { initialValue: this.router.url.split(/[?#]/, 1)[0]! },
  );
  /**
   * The expired banner, except on the renewal page: that page explains it itself, and a second
   * red banner with a "Renew" link to the page already open only repeated it (issue 14). Nor on
   * the overview, whose hero is that banner with its one Renew (issue 29).
   */
  protected readonly expiredBanner = computed(() =>
    OWN_EXPIRY_NOTICE.includes(this.path()) ? null : this.expiredOn(),
  );
  /** Counts on admin entries (pending requests…), refreshed as admin pages open (issue 14). */
  protected readonly counts = inject(AdminCounts);
  protected readonly consoleNav = CONSOLE_NAV;
  protected readonly adminNav = ADMIN_NAV;
  protected readonly tabs = MEMBER_TABS;
  protected readonly build = BUILD_INFO;
  protected readonly compact = toSignal(
    inject(BreakpointObserver)
      .observe(COMPACT)
      .pipe(map((state) => state.matches)),
    { initialValue: matchMedia(COMPACT).matches },
  );

  protected readonly phone = toSignal(
    inject(BreakpointObserver)
      .observe(PHONE)
      .pipe(map((state) => state.matches)),
    { initialValue: matchMedia(PHONE).matches },
  );

  constructor() {
    // A drawer that stays open over the page it just opened would hide it.
    this.router.events
      .pipe(
        filter((event) => event instanceof NavigationEnd),
        takeUntilDestroyed(),
      )
      .subscribe(() => {
        // The first NavigationEnd comes before the view exists, hence the optional drawer.
        if (this.compact()) void this.drawer()?.close();
        this.refreshCounts();
      });
    this.refreshCounts();
  }

  /** An admin held on the forced password change may not read the counts yet (403). */
  private refreshCounts(): void {
    if (this.isAdmin() && !this.locked()) void this.counts.refresh();
  }

  protected skipToMain(event: Event): void {
    event.preventDefault();
    document.getElementById('main')?.focus();
  }

  protected signOut(): Promise<void> {
    return this.session.signOut();
  }
}
