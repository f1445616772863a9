/** Editing one approval copy to a card (40-bot.md §2.3): caption for photos, text otherwise. */
import { approvalCard, type CardSubscription, type FinalState } from '../format/cards.js';
import type { Lang } from '../config.js';
import type { AdminRequestView } from '../api-schemas.js';
import { CAPTION_LIMIT } from '../format/html.js';
import { tgCall, type TelegramDeps, type TgOutcome } from '../telegram.js';

export function editCopy(
  deps: TelegramDeps,
  copy: { chatId: number; messageId: number; hasPhoto: boolean },
  s: CardSubscription,
  lang: Lang,
  timeZone: string,
  final?: FinalState,
): Promise<TgOutcome<unknown>> {
  const card = approvalCard(s, lang, timeZone, final);
  const common = {
    chat_id: copy.chatId,
    message_id: copy.messageId,
    parse_mode: 'HTML',
    reply_markup: { inline_keyboard: [] },
  };
  if (copy.hasPhoto) {
    // A card too long for a caption even without the note is cut as plain text (rare: a
    // maximal title, name and reason together).
    const caption = card.caption ?? card.text.replace(/<[^>]*>/g, '').slice(0, CAPTION_LIMIT - 1);
    return tgCall(deps, 'editMessageCaption', {
      ...common,
      caption,
      ...(card.caption === null ? { parse_mode: undefined } : {}),
    });
  }
  return tgCall(deps, 'editMessageText', {
    ...common,
    text: card.text,
    link_preview_options: { is_disabled: true },
  });
}

export function cardFromRequest(r: AdminRequestView): CardSubscription {
  return {
    id: r.id,
    mediaType: r.type === 'MOVIE' ? 'movie' : 'tv',
    tmdbId: r.tmdbId,
    title: r.name,
    year: r.year,
    season: r.season,
    posterPath: r.posterPath,
    note: r.note ? r.note : null,
    requester: { username: r.requester.username },
  };
}

/** The final state a request's copies show, or null while it is pending. */
export function finalStateOf(r: AdminRequestView, fallbackName: string): FinalState | null {
  const at = r.reviewedAt ?? new Date().toISOString();
  const name = r.reviewer?.username ?? fallbackName;
  if (r.status === 'APPROVED') return { kind: 'approved', name, at };
  if (r.status === 'REJECTED') return { kind: 'rejected', name, at, reason: r.rejectReason ?? '' };
  if (r.status === 'INGESTED') return { kind: 'available', at: r.ingestedAt ?? at };
  return null;
}
