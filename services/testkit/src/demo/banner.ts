// What the demo prints: where to go, how to sign in, what the world holds, and where each fake
// listens (with its control API), plus captured mail as it arrives (sign-up codes live there).
import type { CapturedMail } from '../smtp/server.js';
import type { DemoFakes } from './fakes.js';

export interface BannerInput {
  url: string;
  password: string;
  dataDir: string;
  /** Folder of the built web app when served; undefined = API only. */
  webDist: string | undefined;
  fakes: DemoFakes;
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
    `${world.users.length} media users, ${world.plays.length} plays over 90 days, ` +
    `${playing} playing now`
  );
}

export function describeDemo(input: BannerInput): string {
  const { fakes } = input;
  const media = fakes.mediaServer;
  const kind = media.state.flavour === 'emby' ? 'Emby' : 'Jellyfin';
  const lines = [
    '',
    `Usher demo is up (${input.seconds.toFixed(1)} s)`,
    `  Open       ${input.url}`,
    `  Sign in    admin / ${input.password}   (you will be asked to choose a new password)`,
    `  Database   fresh PGlite in ${input.dataDir} (deleted when the demo stops)`,
    input.webDist
      ? `  Web app    ${input.webDist}`
      : '  Web app    not built: API only (build it with `npx nx build web`, then restart)',
    `  World      ${worldSummary(fakes)}`,
    '',
    'Fakes (loopback only; Usher is wired to them through its settings env fallbacks):',
    `  ${kind.padEnd(11)}${media.url}  API key ${fakes.env.MEDIA_SERVER_API_KEY}`,
    `             users log in with <name>-demo (e.g. ${fakes.world.users[1]?.name}` +
      ` / ${fakes.world.users[1]?.password}); control: GET ${media.url}/__fake/state,` +
      ' POST /__fake/items (adds an item and fires the webhook at Usher)',
    `  TMDB       ${fakes.tmdb.apiBase}  images ${fakes.tmdb.imageBase}`,
    `  MoviePilot ${fakes.moviePilot.url}  ${fakes.moviePilot.username} / ` +
      fakes.moviePilot.password,
    `  Stripe     ${fakes.stripe.url}  (checkout pages there have Pay, Pay later, Fail, Cancel)`,
    `  SMTP       ${fakes.smtp.url}  (mail is printed here as it arrives)`,
    `  Telegram   ${fakes.telegram.url}  bot token ${fakes.telegram.token}; ` +
      `control: GET ${fakes.telegram.url}/__fake/calls`,
    '',
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
