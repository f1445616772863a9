import type { NavCount } from './admin-counts';

/** One entry of the side navigation. `key` is the translation key of its label. */
export interface NavItem {
  key: string;
  icon: string;
  link: string;
  /** Whether the link leaves the SPA (opened in a new tab). */
  external?: boolean;
  /** A number shown on the entry while it is above zero (admin entries, from system info). */
  count?: NavCount;
}

/** The side navigation's places, in the spec's order, each with the console it belongs to. */
const NAV: readonly (NavItem & { area: 'console' | 'admin' })[] = [
  // Member pages (60-web.md §1 shell, §3): entries appear as their pages are built.
  { area: 'console', key: 'nav.overview', icon: 'space_dashboard', link: '/console/overview' },
  { area: 'console', key: 'requests.nav', icon: 'movie_filter', link: '/console/requests' },
  { area: 'console', key: 'calendar.nav', icon: 'event_available', link: '/console/calendar' },
  { area: 'console', key: 'rankings.nav', icon: 'leaderboard', link: '/console/rankings' },
  { area: 'console', key: 'nav.renewal', icon: 'autorenew', link: '/console/renewal' },
  { area: 'console', key: 'portrait.nav', icon: 'play_circle', link: '/console/portrait' },
  { area: 'console', key: 'nav.account', icon: 'manage_accounts', link: '/console/account' },
  // The admin back office, shown to role `admin` only.
  { area: 'admin', key: 'adminOverview.nav', icon: 'space_dashboard', link: '/admin/overview' },
  { area: 'admin', key: 'nav.users', icon: 'group', link: '/admin/users' },
  { area: 'admin', key: 'nav.redeemCodes', icon: 'redeem', link: '/admin/redeem-codes' },
  { area: 'admin', key: 'nav.plans', icon: 'sell', link: '/admin/plans' },
  { area: 'admin', key: 'nav.payments', icon: 'payments', link: '/admin/payments' },
  { area: 'admin', key: 'lifecycle.nav', icon: 'campaign', link: '/admin/lifecycle' },
  {
    area: 'admin',
    key: 'adminRequests.title',
    icon: 'fact_check',
    link: '/admin/requests',
    count: 'pendingRequests',
  },
  {
    area: 'admin',
    key: 'adminSettings.title',
    icon: 'settings',
    link: '/admin/settings',
    count: 'undecryptableSettings',
  },
  { area: 'admin', key: 'quality.nav', icon: 'high_quality', link: '/admin/media-quality' },
  { area: 'admin', key: 'devices.nav', icon: 'devices', link: '/admin/devices' },
  { area: 'admin', key: 'liveSessions.nav', icon: 'live_tv', link: '/admin/sessions' },
  { area: 'admin', key: 'sharing.nav', icon: 'shield_person', link: '/admin/sharing' },
  { area: 'admin', key: 'adminPlayback.nav', icon: 'history', link: '/admin/playback' },
  { area: 'admin', key: 'nav.jobs', icon: 'schedule', link: '/admin/jobs' },
  { area: 'admin', key: 'nav.backups', icon: 'dns', link: '/admin/backups' },
  { area: 'admin', key: 'nav.audit', icon: 'receipt_long', link: '/admin/audit' },
  { area: 'admin', key: 'nav.apiReference', icon: 'api', link: '/api/v1/docs', external: true },
];

/**
 * Member pages (60-web.md §1 shell, §3); the spec's order is Overview, Requests, Calendar,
 * Rankings, Renewal, My playback, Account.
 */
export const CONSOLE_NAV: readonly NavItem[] = NAV.filter((item) => item.area === 'console');

/**
 * The bottom bar at phone widths (issue 36): the five places a member goes most, one thumb away.
 * Rankings and My playback stay in the drawer with everything else.
 */
export const MEMBER_TABS: readonly NavItem[] = [
  '/console/overview',
  '/console/requests',
  '/console/calendar',
  '/console/renewal',
  '/console/account',
].map((link) => CONSOLE_NAV.find((item) => item.link === link)!);

/** The admin back office, shown to role `admin` only. */
export const ADMIN_NAV: readonly NavItem[] = NAV.filter((item) => item.area === 'admin');
