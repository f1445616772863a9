/**
 * `/search <title>` (40-bot.md §6.4): results → pick → (seasons) → confirm → request. The
 * dialogue lives in an API pending action, so any replica can take the next button press.
 */
import { existingSummarySchema, type MetadataResult } from '../api-schemas.js';
import { callback, type ParsedCallback } from '../format/callback.js';
import { cut, esc } from '../format/html.js';
import { html, t } from '../format/i18n/index.js';
import { LIMITS } from '../format/cards.js';
import { seasonSuffix, tmdbUrl, typeLabel } from '../format/values.js';
import type { Lang } from '../config.js';
import { tgCall } from '../telegram.js';
import {
  answer,
  commandArgs,
  editText,
  failureText,
  plain,
  reply,
  tgDeps,
  type Bot,
  type BotContext,
  type BotDeps,
  type Keyboard,
} from './context.js';
import { requirePrivate } from './guards.js';

export const SEARCH_TTL_SECONDS = 600;
const MAX_RESULTS = 8;
const MAX_SEASON_BUTTONS = 30;

interface Result {
  tmdbId: number;
  mediaType: 'movie' | 'tv';
  title: string;
  originalTitle: string;
  year: number | null;
  overview: string;
  posterPath: string | null;
}

interface SearchState extends Record<string, unknown> {
  query: string;
  results: Result[];
  step: 'list' | 'detail' | 'seasons' | 'confirm' | 'exists';
  messageId?: number;
  pick?: number;
  season?: number;
  seasons?: number[];
}

function keep(result: MetadataResult): Result {
  return {
    tmdbId: result.tmdbId,
    mediaType: result.mediaType,
    title: cut(result.title, LIMITS.title),
    originalTitle: cut(result.originalTitle ?? '', LIMITS.title),
    year: result.year,
    overview: cut(result.overview ?? '', LIMITS.overview),
    posterPath: result.posterPath,
  };
}

const year = (y: number | null) => (y ? ` (${y})` : '');

function preview(imageBase: string, posterPath: string | null) {
  return posterPath
    ? { url: `${imageBase}/w500${posterPath}`, show_above_text: true }
    : { is_disabled: true };
}

function listText(state: SearchState, lang: Lang) {
  const lines = [t(lang, 'search.list', { query: state.query })];
  state.results.forEach((r, i) => {
    const original =
      r.originalTitle && r.originalTitle !== r.title
        ? ` — <i>${esc(r.originalTitle, LIMITS.listTitle)}</i>`
        : '';
    lines.push(
      `<b>${i + 1}.</b> ${esc(r.title, LIMITS.listTitle)}${year(r.year)} · ${typeLabel(r.mediaType, lang)}${original}`,
    );
  });
  return lines.join('\n');
}

function listKeyboard(id: string, state: SearchState, lang: Lang): Keyboard {
  const rows: Keyboard = [];
  state.results.forEach((_r, i) => {
    if (i % 4 === 0) rows.push([]);
    rows[rows.length - 1]!.push({ text: String(i + 1), callback_data: callback.pick(id, i + 1) });
  });
  rows.push([{ text: t(lang, 'button.cancel'), callback_data: callback.search(id, 'x') }]);
  return rows;
}

function detailText(r: Result, lang: Lang) {
  const lines = [
    `📌 <b>${esc(r.title)}</b>${year(r.year)}`,
    `${typeLabel(r.mediaType, lang)} · <a href="${tmdbUrl(r.mediaType, r.tmdbId)}">TMDB</a>`,
  ];
  if (r.overview) lines.push('', esc(r.overview));
  return lines.join('\n');
}

/**
 * What the library already holds, in the member's language, from the API's structured summary
 * (`matchType`, seasons, episode count) rather than its English `message`.
 */
function existingText(summary: unknown, title: string, season: number, lang: Lang): string {
  const parsed = existingSummarySchema.safeParse(summary);
  if (!parsed.success) return '';
  const { matchType, seasons, episodeCount } = parsed.data;
  const name = cut(title, 200);
  if (matchType === 'movie') return t(lang, 'search.existing.movie', { title: name });
  if (matchType === 'season') {
    // A season match counts the episodes of the season that was asked for.
    return t(lang, 'search.existing.season', { title: name, season, episodes: episodeCount });
  }
  return t(lang, 'search.existing.series', {
    title: name,
    seasons: seasons.length,
    episodes: episodeCount,
  });
}

function confirmText(r: Result, season: number, lang: Lang) {
  return `${detailText(r, lang)}\n\n${t(lang, 'search.confirm', {
    title: r.title,
    season: seasonSuffix(r.mediaType, season, lang),
  })}`;
}

function seasonsKeyboard(id: string, seasons: number[], lang: Lang): Keyboard {
  const rows: Keyboard = [];
  seasons.slice(0, MAX_SEASON_BUTTONS).forEach((n, i) => {
    if (i % 3 === 0) rows.push([]);
    rows[rows.length - 1]!.push({
      text: t(lang, 'search.seasonButton', { n }),
      callback_data: callback.season(id, n),
    });
  });
  rows.push([{ text: t(lang, 'search.wholeSeries'), callback_data: callback.season(id, 0) }]);
  rows.push([{ text: t(lang, 'button.back'), callback_data: callback.search(id, 'b') }]);
  return rows;
}

export function registerSearch(bot: Bot, deps: BotDeps) {
  bot.command('search', async (ctx) => {
    ctx.command = 'search';
    if (!(await requirePrivate(ctx, deps))) return;
    const query = commandArgs(ctx).join(' ');
    if (query.length < 1 || query.length > 100) {
      await reply(ctx, deps, t(ctx.lang, 'usage.search'));
      return;
    }
    const account = await ctx.api.lookup({
      messengerId: ctx.from.id,
      languageCode: ctx.from.language_code,
    });
    if (!account.ok) {
      await reply(ctx, deps, failureText(ctx.lang, account));
      return;
    }
    const found = await ctx.api.search(query);
    if (!found.ok) {
      await reply(ctx, deps, failureText(ctx.lang, found));
      return;
    }
    const results = found.data.data.slice(0, MAX_RESULTS).map(keep);
    if (results.length === 0) {
      await reply(ctx, deps, t(ctx.lang, 'search.none', { query }));
      return;
    }
    const state: SearchState = { query, results, step: 'list' };
    const created = await ctx.api.createPending({
      kind: 'search',
      chatId: ctx.chat.id,
      messengerUserId: ctx.from.id,
      payload: state,
      ttlSeconds: SEARCH_TTL_SECONDS,
    });
    if (!created.ok) {
      await reply(ctx, deps, failureText(ctx.lang, created));
      return;
    }
    const settings = await deps.settings.get();
    const sent = await reply(ctx, deps, listText(state, ctx.lang), {
      link_preview_options: preview(settings.imageBase, results[0]!.posterPath),
      reply_markup: { inline_keyboard: listKeyboard(created.data.id, state, ctx.lang) },
    });
    if (sent.ok) {
      await ctx.api.patchPending(created.data.id, {
        payload: { ...state, messageId: sent.result.message_id },
      });
    }
  });
}

type SearchCallback = Extract<ParsedCallback, { kind: 'pick' | 'season' | 'search' }>;

/** Removes the keyboard of a menu whose state is gone and says so. */
async function stale(ctx: BotContext, deps: BotDeps, messageId: number) {
  await answer(ctx, deps, plain(ctx.lang, 'common.stale'));
  await tgCall(tgDeps(ctx, deps), 'editMessageReplyMarkup', {
    chat_id: ctx.chat!.id,
    message_id: messageId,
    reply_markup: { inline_keyboard: [] },
  });
}

export async function handleSearchCallback(ctx: BotContext, deps: BotDeps, data: SearchCallback) {
  const messageId = ctx.callbackQuery!.message!.message_id;
  const loaded = await ctx.api.getPending(data.stateId);
  if (!loaded.ok) {
    if (loaded.kind === 'error' && loaded.status === 404) return stale(ctx, deps, messageId);
    await answer(ctx, deps, plain(ctx.lang, 'common.unavailable'), true);
    return;
  }
  const state = loaded.data.payload as SearchState;
  if (
    loaded.data.kind !== 'search' ||
    loaded.data.messengerUserId !== ctx.from!.id ||
    state.messageId !== messageId
  ) {
    return stale(ctx, deps, messageId);
  }
  const id = data.stateId;
  const lang = ctx.lang;
  const settings = await deps.settings.get();
  const save = (next: SearchState) => ctx.api.patchPending(id, { payload: next });
  const finish = async (text: string) => {
    await ctx.api.deletePending(id);
    await editText(ctx, deps, messageId, text);
  };

  if (data.kind === 'search' && data.action === 'x') {
    await answer(ctx, deps);
    await finish(t(lang, 'common.cancelled'));
    return;
  }
  if (data.kind === 'search' && data.action === 'b') {
    await answer(ctx, deps);
    const next: SearchState = {
      ...state,
      step: 'list',
      pick: undefined,
      season: undefined,
      seasons: undefined,
    };
    await save(next);
    await editText(ctx, deps, messageId, listText(next, lang), listKeyboard(id, next, lang), {
      link_preview_options: preview(settings.imageBase, next.results[0]?.posterPath ?? null),
    });
    return;
  }

  const index = data.kind === 'pick' ? data.index : (state.pick ?? 0);
  const result = state.results[index - 1];
  if (!result) return stale(ctx, deps, messageId);
  const posterPreview = { link_preview_options: preview(settings.imageBase, result.posterPath) };

  const showSeasons = async (next: SearchState) => {
    await save(next);
    await editText(
      ctx,
      deps,
      messageId,
      `${detailText(result, lang)}\n\n${t(lang, 'search.pickSeason')}`,
      seasonsKeyboard(id, next.seasons ?? [], lang),
      posterPreview,
    );
  };

  if (data.kind === 'pick') {
    if (result.mediaType === 'movie') {
      await answer(ctx, deps);
      await save({ ...state, step: 'confirm', pick: index, season: 0 });
      await editText(
        ctx,
        deps,
        messageId,
        confirmText(result, 0, lang),
        [
          [
            { text: t(lang, 'button.request'), callback_data: callback.search(id, 'ok') },
            { text: t(lang, 'button.back'), callback_data: callback.search(id, 'b') },
          ],
          [{ text: t(lang, 'button.cancel'), callback_data: callback.search(id, 'x') }],
        ],
        posterPreview,
      );
      return;
    }
    const seasons = await ctx.api.seasons(result.tmdbId);
    if (!seasons.ok) {
      await answer(ctx, deps, plain(lang, 'common.unavailable'), true);
      return;
    }
    await answer(ctx, deps);
    const numbers = seasons.data.seasons.map((s) => s.seasonNumber).filter((n) => n > 0);
    await showSeasons({
      ...state,
      step: 'seasons',
      pick: index,
      seasons: numbers,
      season: undefined,
    });
    return;
  }
  if (data.kind === 'search' && data.action === 'bs') {
    await answer(ctx, deps);
    await showSeasons({ ...state, step: 'seasons', season: undefined });
    return;
  }
  if (data.kind === 'season') {
    await answer(ctx, deps);
    await save({ ...state, step: 'confirm', season: data.season });
    await editText(
      ctx,
      deps,
      messageId,
      confirmText(result, data.season, lang),
      [
        [
          { text: t(lang, 'button.request'), callback_data: callback.search(id, 'ok') },
          { text: t(lang, 'button.seasons'), callback_data: callback.search(id, 'bs') },
        ],
        [{ text: t(lang, 'button.cancel'), callback_data: callback.search(id, 'x') }],
      ],
      posterPreview,
    );
    return;
  }

  // ok / f: create the request.
  const season = result.mediaType === 'movie' ? 0 : (state.season ?? 0);
  const created = await ctx.api.createRequest({
    messengerId: ctx.from!.id,
    languageCode: ctx.from!.language_code,
    type: result.mediaType === 'movie' ? 'MOVIE' : 'TV',
    tmdbId: result.tmdbId,
    season,
    name: result.title,
    year: result.year,
    posterPath: result.posterPath,
    confirmExisting: data.kind === 'search' && data.action === 'f',
  });
  await answer(ctx, deps);
  const vars = { title: result.title, season: seasonSuffix(result.mediaType, season, lang) };
  if (created.ok) {
    await finish(
      t(
        lang,
        created.data.outcome === 'auto_approved' ? 'search.autoApproved' : 'search.created',
        vars,
      ),
    );
    return;
  }
  if (created.kind === 'error' && created.code === 'ALREADY_IN_LIBRARY') {
    const existing = existingText(
      (created.details as { summary?: unknown } | undefined)?.summary,
      result.title,
      season,
      lang,
    );
    await save({ ...state, step: 'exists', season });
    await editText(
      ctx,
      deps,
      messageId,
      t(lang, 'search.inLibrary', { existing: html(existing) }),
      [
        [
          { text: t(lang, 'button.requestAnyway'), callback_data: callback.search(id, 'f') },
          { text: t(lang, 'button.cancel'), callback_data: callback.search(id, 'x') },
        ],
      ],
    );
    return;
  }
  if (created.kind === 'error' && created.code === 'REQUEST_EXISTS') {
    const status = String((created.details as { status?: string } | undefined)?.status ?? '');
    const label = ['PENDING', 'APPROVED', 'REJECTED', 'INGESTED'].includes(status)
      ? t(lang, `requestStatus.${status}` as 'requestStatus.PENDING')
      : status;
    await finish(t(lang, 'search.duplicate', { status: label }));
    return;
  }
  if (
    created.kind === 'error' &&
    (created.code === 'MEDIA_ACCOUNT_UNLINKED' || created.code === 'MEDIA_ACCESS_REQUIRED')
  ) {
    await finish(t(lang, 'search.needAccount'));
    return;
  }
  if (created.kind === 'unavailable') {
    // Keep the state and the buttons: the member may press Request again once Usher is back.
    await reply(ctx, deps, failureText(lang, created));
    return;
  }
  await finish(failureText(lang, created));
}
