// What the demo prints: where to go, how to sign in, what Usher and the world hold, where each
// fake listens (with its control API), how to talk to the bot; then captured mail and the bot's
// Telegram messages as they arrive (sign-up codes and approval cards live there).
import type { CapturedMail } from '../smtp/server.js';
import type { TelegramCall } from '../telegram/server.js';
import type { DemoFakes } from './fakes.js';
import type { SeededUsher } from './seed-usher.js';
import { HISTORY_DAYS } from './playback.js';

export interface BannerInput {
  url: string;
  seeded: SeededUsher;
  dataDir: string;
  /** Folder of the built web app when served; undefined = API only. */
  webDist: string | undefined;
  fakes: DemoFakes;
  /** The bot's address when it runs; undefined = not started. */
  bot: { url: string } | { problem: string } | undefined;
  seconds: number;
}

export function worldSummary(fakes: DemoFakes): string {
  const { world } = fakes;
  const episodes = world.shows.flatMap((s) => s.episodes);
  const onDisk = episodes.filter((e) => e.file).length;
  const upcoming = episodes.filter((e) => e.airDate > world.today).length;
  const playing = world.sessions.filter((s) => s.playing).length;
  const known = world.tmdb.movies.length + world.tmdb.tv.length;
  return (
    `seed ${world.seed}: ${world.movies.length} movies and ${world.shows.length} shows on disk ` +
    `(${onDisk} episodes, ${upcoming} upcoming), ${known} titles on TMDB, ` +
    `${world.users.length} media users, ${world.plays.length} plays over ${HISTORY_DAYS} days, ` +
    `${playing} playing now`
  );
}

export function usherSummary(seeded: SeededUsher): string {
  const r = seeded.requests;
  return (
    `${seeded.users} accounts, ${seeded.codes} redeem codes (${seeded.redemptions} redeemed), ` +
    `media requests: ${r.PENDING} pending, ${r.APPROVED} approved, ${r.REJECTED} rejected, ` +
    `${r.INGESTED} ingested` +
    (seeded.payments
      ? `, payments: ${seeded.payments.completed} completed, ${seeded.payments.pending} pending, ` +
        `${seeded.payments.expired} expired, ${seeded.payments.failed} failed`
      : '')
  );
}

/** A ready-to-paste update for the fake's control API: `text` typed by `userId` in their chat. */
export function botCommandCurl(telegramUrl: string, userId: number, name: string, text: string) {
  const command = /^\/\w+/.exec(text)?.[0];
  const update = {
    deliver: 'webhook',
    update: {
      message: {
        date: Math.floor(Date.now() / 1000),
        chat: { id: userId, type: 'private', first_name: name },
        from: { id: userId, is_bot: false, first_name: name },
        text,
        ...(command
          ? { entities: [{ type: 'bot_command', offset: 0, length: command.length }] }
          : {}),
      },
    },
  };
  return (
    `curl -s ${telegramUrl}/__fake/updates -H 'content-type: application/json' ` +
    `-d '${JSON.stringify(update)}'`
  );
}

function botLines(input: BannerInput): string[] {
  const { bot, fakes, seeded } = input;
  const tg = fakes.telegram.url;
  if (!bot) return ['Bot: not started (DEMO_BOT=off, or services/bot was not built).', ''];
  if ('problem' in bot) {
    return [`Bot: did not start (${bot.problem}); the rest of the demo runs without it.`, ''];
  }
  const member = seeded.member;
  const lines = [
    `Bot: @${fakes.telegram.bot.username} on the Telegram fake, webhook mode at ${bot.url}`,
  ];
  if (member.telegramId) {
    const name = member.username.charAt(0).toUpperCase() + member.username.slice(1);
    lines.push(
      `  Talk to it as ${member.username} (Telegram user ${member.telegramId}, linked): send a ` +
        'command through the fake, e.g.',
      `    ${botCommandCurl(tg, member.telegramId, name, '/info')}`,
      `  then read the chat: curl -s '${tg}/__fake/messages?chat_id=${member.telegramId}'`,
      "  Also /help, /search <title>, /redeem <code>. The bot's messages are printed here too.",
    );
  }
  if (seeded.admin.telegramId) {
    lines.push(
      `  The admin is Telegram user ${seeded.admin.telegramId} (the approver): request cards ` +
        `arrive in chat ${seeded.admin.telegramId} with Approve / Reject buttons.`,
    );
  }
  lines.push('');
  return lines;
}

export function describeDemo(input: BannerInput): string {
  const { fakes, seeded } = input;
  const media = fakes.mediaServer;
  const kind = media.state.flavour === 'emby' ? 'Emby' : 'Jellyfin';
  const admin = `${seeded.admin.username} / ${seeded.admin.password}`;
  const member = `${seeded.member.username} / ${seeded.member.password}`;
  const width = Math.max(admin.length, member.length) + 3;
  const lines = [
    '',
    `Usher demo is up (${input.seconds.toFixed(1)} s)`,
    `  Open       ${input.url}`,
    `  Sign in    ${admin.padEnd(width)}(administrator)`,
    `             ${member.padEnd(width)}(member, with requests, redemptions and Telegram)`,
    `  Usher      ${usherSummary(seeded)}`,
    `  Database   fresh PGlite in ${input.dataDir} (deleted when the demo stops)`,
    input.webDist
      ? `  Web app    ${input.webDist}`
      : '  Web app    not served: API only (DEMO_WEB=off, or the web app could not be built)',
    `  World      ${worldSummary(fakes)}`,
    '',
    "Fakes (loopback only; Usher's settings point at them):",
    `  ${kind.padEnd(11)}${media.url}  API key ${fakes.env.MEDIA_SERVER_API_KEY}`,
    '             everyone logs in with <name>-demo, here and in Usher; control: ' +
      `GET ${media.url}/__fake/state, POST /__fake/items (adds an item and fires the webhook ` +
      'at Usher)',
    `  TMDB       ${fakes.tmdb.apiBase}  images ${fakes.tmdb.imageBase}`,
    `  MoviePilot ${fakes.moviePilot.url}  ${fakes.moviePilot.username} / ` +
      fakes.moviePilot.password,
    `  Stripe     ${fakes.stripe.url}  (checkout pages there have Pay, Pay later, Fail, Cancel)`,
    `  SMTP       ${fakes.smtp.url}  (mail is printed here as it arrives)`,
    `  Telegram   ${fakes.telegram.url}  bot token ${fakes.telegram.token}; ` +
      `control: GET ${fakes.telegram.url}/__fake/calls`,
    ...(fakes.oidc
      ? [
          `  SSO        ${fakes.oidc.issuer}  (oidc-provider) alice / alice-password (new ` +
            'member), ada / ada-password (admin by group)',
        ]
      : []),
    '',
    ...botLines(input),
    'Ctrl-C stops everything.',
    '',
  ];
  return lines.join('\n');
}

export function mailLines(mail: CapturedMail): string {
  const body = (mail.text ?? '').trim().split('\n').slice(0, 12);
  return [
    '',
    `✉  Mail to ${mail.envelope.to.join(', ')}: ${mail.subject}`,
    ...body.map((line) => `   ${line}`),
    '',
  ].join('\n');
}

const SENDS = new Set(['sendMessage', 'sendPhoto', 'editMessageText', 'editMessageCaption']);

/** Telegram HTML as plain text. */
function plain(html: string): string {
  return html
    .replace(/<br\s*\/?>/g, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
}

/** A message the bot sent (or edited), for the terminal; '' for other calls and failures. */
export function telegramLines(call: TelegramCall, chatName: (id: number) => string): string {
  if (!SENDS.has(call.method) || call.status !== 200) return '';
  const p = call.params as Record<string, unknown>;
  const text = plain(String(p['text'] ?? p['caption'] ?? ''))
    .trim()
    .split('\n')
    .slice(0, 8);
  const raw = p['reply_markup'];
  // Sent as an object in a JSON body, or as JSON text in a form body.
  const markup = (typeof raw === 'string' ? JSON.parse(raw) : raw) as
    { inline_keyboard?: { text: string }[][] } | undefined;
  const buttons = (markup?.inline_keyboard ?? []).flat().map((b) => `[${b.text}]`);
  const verb = call.method.startsWith('edit') ? 'edited in' : 'to';
  return [
    '',
    `💬 Bot ${verb} ${chatName(Number(p['chat_id']))}:`,
    ...text.map((line) => `   ${line}`),
    ...(buttons.length > 0 ? [`   ${buttons.join(' ')}`] : []),
    '',
  ].join('\n');
}
