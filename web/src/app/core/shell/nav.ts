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

/**
 * Member pages (60-web.md §1 shell, §3). Entries appear as their pages are built; the spec's
 * order is Overview, Requests, Calendar, Rankings, Renewal, My playback, Account.
 */
export const CONSOLE_NAV: readonly NavItem[] = [
  { key: 'nav.overview', icon: 'space_dashboard', link: '/console/overview' },
  { key: 'requests.nav', icon: 'movie_filter', link: '/console/requests' },
  { key: 'calendar.nav', icon: 'event_available', link: '/console/calendar' },
  { key: 'rankings.nav', icon: 'leaderboard', link: '/console/rankings' },
  { key: 'nav.renewal', icon: 'autorenew', link: '/console/renewal' },
  { key: 'portrait.nav', icon: 'play_circle', link: '/console/portrait' },
  { key: 'nav.account', icon: 'manage_accounts', link: '/console/account' },
];

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
export const ADMIN_NAV: readonly NavItem[] = [
  { key: 'adminOverview.nav', icon: 'space_dashboard', link: '/admin/overview' },
  { key: 'nav.users', icon: 'group', link: '/admin/users' },
  { key: 'nav.redeemCodes', icon: 'redeem', link: '/admin/redeem-codes' },
  { key: 'nav.plans', icon: 'sell', link: '/admin/plans' },
  { key: 'nav.payments', icon: 'payments', link: '/admin/payments' },
  { key: 'lifecycle.nav', icon: 'campaign', link: '/admin/lifecycle' },
  {
    key: 'adminRequests.title',
    icon: 'fact_check',
    link: '/admin/requests',
    count: 'pendingRequests',
  },
  {
    key: 'adminSettings.title',
    icon: 'settings',
    link: '/admin/settings',
    count: 'undecryptableSettings',
  },
  { key: 'quality.nav', icon: 'high_quality', link: '/admin/media-quality' },
  { key: 'devices.nav', icon: 'devices', link: '/admin/devices' },
  { key: 'liveSessions.nav', icon: 'live_tv', link: '/admin/sessions' },
  { key: 'sharing.nav', icon: 'shield_person', link: '/admin/sharing' },
  { key: 'adminPlayback.nav', icon: 'history', link: '/admin/playback' },
  { key: 'nav.jobs', icon: 'schedule', link: '/admin/jobs' },
  { key: 'nav.backups', icon: 'dns', link: '/admin/backups' },
  { key: 'nav.audit', icon: 'receipt_long', link: '/admin/audit' },
  { key: 'nav.apiReference', icon: 'api', link: '/api/v1/docs', external: true },
];
