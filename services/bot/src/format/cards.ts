/**
 * Message bodies built from API payloads (40-bot.md §7, §10.3). Raw values are cut, then escaped;
 * captions that do not fit drop the note, then fall back to a text message.
 */
import type { Lang } from '../config.js';
import { CAPTION_LIMIT, TEXT_LIMIT, cut, esc, visibleLength } from './html.js';
import { html, t } from './i18n/index.js';
import {
  formatDuration,
  formatExpiry,
  formatMoney,
  formatTime,
  seasonSuffix,
  tmdbUrl,
  typeLabel,
} from './values.js';

export const LIMITS = {
  title: 160,
  listTitle: 60,
  username: 64,
  note: 500,
  reason: 500,
  overview: 300,
};

export interface CardSubscription {
  id: string;
  mediaType: 'movie' | 'tv';
  tmdbId: number;
  title: string;
  year: number | null;
  season: number;
  posterPath: string | null;
  note: string | null;
  requester: { username: string };
}

export type FinalState =
  | { kind: 'approved'; name: string; at: string }
  | { kind: 'rejected'; name: string; at: string; reason: string }
  | { kind: 'available'; at: string };

const yearPart = (year: number | null) => (year ? ` (${year})` : '');

/** Card lines shared by the approval card and the auto-approved card; `note` last (droppable). */
function cardLines(s: CardSubscription, lang: Lang, withNote: boolean): string[] {
  const lines = [
    `📌 <b>${escapeTitle(s.title)}</b>${yearPart(s.year)}`,
    `🎭 ${t(lang, s.mediaType === 'movie' ? 'type.movie' : 'type.tv')}${seasonSuffix(s.mediaType, s.season, lang)}`,
    `👤 ${escapeUser(s.requester.username)}`,
    `🔗 <a href="${tmdbUrl(s.mediaType, s.tmdbId)}">TMDB #${s.tmdbId}</a>`,
  ];
  if (withNote && s.note) lines.push(`💬 ${escapeRaw(s.note, LIMITS.note)}`);
  return lines;
}

const escapeRaw = (value: string, max: number) => esc(value, max);
const escapeTitle = (title: string) => escapeRaw(title, LIMITS.title);
const escapeUser = (name: string) => escapeRaw(name, LIMITS.username);

export function footer(state: FinalState, lang: Lang, timeZone: string): string {
  const lines = ['────────'];
  if (state.kind === 'approved') {
    lines.push(
      t(lang, 'approval.approvedBy', {
        name: cut(state.name, LIMITS.username),
        time: formatTime(state.at, timeZone),
      }),
    );
  } else if (state.kind === 'rejected') {
    lines.push(
      t(lang, 'approval.rejectedBy', {
        name: cut(state.name, LIMITS.username),
        time: formatTime(state.at, timeZone),
      }),
    );
    lines.push(t(lang, 'approval.reason', { reason: cut(state.reason, LIMITS.reason) }));
  } else {
    lines.push(t(lang, 'approval.available', { time: formatTime(state.at, timeZone) }));
  }
  return lines.join('\n');
}

/** Fits a card into the caption limit: full, then without the note. Null = send as text. */
function fitCaption(build: (withNote: boolean) => string): {
  caption: string | null;
  text: string;
} {
  const full = build(true);
  const text = visibleLength(full) <= TEXT_LIMIT ? full : build(false);
  if (visibleLength(full) <= CAPTION_LIMIT) return { caption: full, text };
  const short = build(false);
  if (visibleLength(short) <= CAPTION_LIMIT) return { caption: short, text };
  return { caption: null, text };
}

/** The approval card (`created`), optionally with its final state (edits). */
export function approvalCard(
  s: CardSubscription,
  lang: Lang,
  timeZone: string,
  final?: FinalState,
): { caption: string | null; text: string } {
  return fitCaption((withNote) =>
    [
      t(lang, 'approval.title'),
      ...cardLines(s, lang, withNote),
      ...(final ? [footer(final, lang, timeZone)] : []),
    ].join('\n'),
  );
}

/** The read-only card for an auto-approved request. */
export function autoApprovedCard(
  s: CardSubscription,
  lang: Lang,
  timeZone: string,
  quota: { usedToday: number; dailyLimit: number } | null,
  reviewedAt: string,
): { caption: string | null; text: string } {
  return fitCaption((withNote) => {
    const lines = [t(lang, 'approval.autoTitle'), ...cardLines(s, lang, withNote)];
    if (quota)
      lines.push(t(lang, 'approval.quota', { used: quota.usedToday, limit: quota.dailyLimit }));
    lines.push(`🕒 ${formatTime(reviewedAt, timeZone)}`);
    return lines.join('\n');
  });
}

/** A DM to the requester about their request. */
export function requesterMessage(
  s: CardSubscription,
  lang: Lang,
  kind: 'approved' | 'auto_approved' | 'rejected' | 'ingested',
  reason?: string,
): string {
  const subject = `📌 ${escapeTitle(s.title)}${seasonSuffix(s.mediaType, s.season, lang)}`;
  switch (kind) {
    case 'approved':
      return [t(lang, 'user.approved'), subject, t(lang, 'user.approvedBody')].join('\n');
    case 'auto_approved':
      return [t(lang, 'user.autoApproved'), subject, t(lang, 'user.approvedBody')].join('\n');
    case 'rejected':
      return [
        t(lang, 'user.rejected'),
        subject,
        t(lang, 'user.rejectedReason', { reason: cut(reason ?? '', LIMITS.reason) }),
        t(lang, 'user.rejectedBody'),
      ].join('\n');
    case 'ingested':
      return [t(lang, 'user.available'), subject, t(lang, 'user.availableBody')].join('\n');
  }
}

export interface RegistrationPayload {
  username: string;
  email: string | null;
  mediaUserId: string | null;
  mode: 'open' | 'invite';
  expiresAt: string | null;
}

export function registrationMessage(p: RegistrationPayload, lang: Lang, timeZone: string): string {
  const lines = [t(lang, 'registration.title'), `👤 ${escapeUser(p.username)}`];
  if (p.email) lines.push(`✉️ ${escapeRaw(p.email, 254)}`);
  if (p.mediaUserId)
    lines.push(t(lang, 'registration.mediaUser', { mediaUserId: cut(p.mediaUserId, 64) }));
  lines.push(t(lang, p.mode === 'open' ? 'registration.open' : 'registration.invite'));
  lines.push(
    t(lang, 'registration.expires', { expiresAt: formatExpiry(p.expiresAt, timeZone, lang) }),
  );
  return lines.join('\n');
}

export interface PaymentPayload {
  paymentId: string;
  username: string;
  planName: string;
  amount: number;
  currency: string;
  days: number;
  previousExpiresAt: string | null;
  newExpiresAt: string;
}

export function paymentMessage(p: PaymentPayload, lang: Lang, timeZone: string): string {
  return [
    t(lang, 'payment.title'),
    `👤 ${escapeUser(p.username)}`,
    `📦 ${escapeRaw(p.planName, 100)}`,
    `💵 ${escapeRaw(formatMoney(p.amount, p.currency, lang), 64)}`,
    t(lang, 'payment.days', { days: p.days }),
    `⏳ ${escapeRaw(formatExpiry(p.previousExpiresAt, timeZone, lang), 64)} → ${formatTime(p.newExpiresAt, timeZone)}`,
    `🧾 <code>${escapeRaw(p.paymentId, 64)}</code>`,
  ].join('\n');
}

export interface RankingItem {
  rank: number;
  name: string;
  playCount: number;
  durationSeconds: number;
}

export interface RankingPayload {
  period: 'daily' | 'weekly';
  periodStart: string;
  periodEnd: string;
  cutoffAt: string;
  timezone: string;
  totalDurationSeconds: number;
  movies: RankingItem[];
  series: RankingItem[];
}

const MEDALS = ['🥇', '🥈', '🥉'];

/** The ranking post; rows are dropped from the bottom until it fits in one message. */
export function rankingMessage(p: RankingPayload, lang: Lang): string {
  const row = (item: RankingItem) =>
    t(lang, 'ranking.row', {
      medal: html(MEDALS[item.rank - 1] ?? `${item.rank}.`),
      title: cut(item.name, LIMITS.listTitle),
      duration: formatDuration(item.durationSeconds, lang),
      plays: item.playCount,
    });
  const build = (movies: RankingItem[], series: RankingItem[]) => {
    const lines = [
      t(lang, p.period === 'daily' ? 'ranking.daily' : 'ranking.weekly'),
      t(lang, 'ranking.period', {
        start: p.periodStart,
        end: p.periodEnd,
        cutoff: formatTime(p.cutoffAt, p.timezone).slice(11),
      }),
      t(lang, 'ranking.total', { duration: formatDuration(p.totalDurationSeconds, lang) }),
    ];
    if (movies.length === 0 && series.length === 0) {
      lines.push('', t(lang, 'ranking.empty'));
      return lines.join('\n');
    }
    if (movies.length > 0) lines.push('', t(lang, 'ranking.movies'), ...movies.map(row));
    if (series.length > 0) lines.push('', t(lang, 'ranking.series'), ...series.map(row));
    return lines.join('\n');
  };
  let movies = [...p.movies];
  let series = [...p.series];
  let text = build(movies, series);
  while (visibleLength(text) > TEXT_LIMIT && movies.length + series.length > 0) {
    // Drop the lowest-ranked row of the longer list first.
    if (series.length >= movies.length) series = series.slice(0, -1);
    else movies = movies.slice(0, -1);
    text = build(movies, series);
  }
  return text;
}

export interface AccountView {
  username: string;
  email: string | null;
  isActive: boolean;
  isExpired: boolean;
  expiresAt: string | null;
  media: { linked: boolean; state?: string | null };
}

export function infoCard(a: AccountView, lang: Lang, timeZone: string): string {
  const status = a.isExpired
    ? 'status.expired'
    : !a.isActive || a.media.state === 'disabled_by_admin'
      ? 'status.disabled'
      : !a.media.linked
        ? 'status.noMedia'
        : 'status.active';
  const lines = [t(lang, 'info.title'), `👤 ${escapeUser(a.username)}`];
  if (a.email) lines.push(`✉️ ${escapeRaw(a.email, 254)}`);
  lines.push(t(lang, status));
  lines.push(t(lang, 'info.validUntil', { expiresAt: formatExpiry(a.expiresAt, timeZone, lang) }));
  if (a.isExpired) lines.push('', t(lang, 'info.renewTip'));
  return lines.join('\n');
}

export { typeLabel, formatTime };
