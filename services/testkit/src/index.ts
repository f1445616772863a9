// Media-server fake (Emby / Jellyfin); more in src/media-server/index.ts. Names are explicit and
// media-prefixed where generic, so they cannot clash with the other fakes' exports.
export {
  DEFAULT_JELLYFIN_TEMPLATE,
  SEED_PASSWORDS as MEDIA_SEED_PASSWORDS,
  addItem as addMediaItem,
  addLibrary as addMediaLibrary,
  addUser as addMediaUser,
  addLiveSession,
  createMediaState,
  embyItemAddedPayload,
  jellyfinItemAddedData,
  pluginDate as playbackPluginDate,
  POSTER_ORIGINAL as MEDIA_POSTER_ORIGINAL,
  posterSize as mediaPosterSize,
  renderJellyfinTemplate,
  routeTable as mediaServerRouteTable,
  seedMediaLibrary,
  setUserData as setMediaUserData,
  sessionDto as mediaSessionDto,
  startFakeMediaServer,
} from './media-server/index.js';
export type {
  CustomQueryReply as PlaybackCustomQueryReply,
  FakeMediaServer,
  FakeMediaServerOptions,
  FakeSession,
  FaultRule as MediaFaultRule,
  LiveSessionInput,
  MediaServerMode,
  MediaState,
  PlaybackRow,
  RequestLogEntry as MediaRequestLogEntry,
  SeedOptions as MediaSeedOptions,
  SeededLibrary as SeededMediaLibrary,
  SessionCommand as MediaSessionCommand,
  WebhookDelivery as MediaWebhookDelivery,
  WebhookOptions as MediaWebhookOptions,
} from './media-server/index.js';

// Demo art (titles in type over a seeded gradient) both image fakes draw.
export { drawArt, encodeJpeg, encodePng } from './art/index.js';
export type { ArtInput, Rgb } from './art/index.js';

// Telegram Bot API fake (spec 50 §6); builders for incoming updates come with it.
export * from './telegram/index.js';

// TMDB v3 fake with its image CDN (spec 50 §3).
export { addDays as tmdbAddDays, defaultTmdbFixtures, startFakeTmdb } from './tmdb/index.js';
export type {
  EpisodeFixture,
  FakeTmdb,
  FakeTmdbOptions,
  MovieFixture,
  PersonFixture,
  SeasonFixture,
  TmdbFixtures,
  Translations as TmdbTranslations,
  TvFixture,
} from './tmdb/index.js';

// MoviePilot 2.5 fake, with strict Radarr/Sonarr modes (spec 50 §4).
export { MoviePilotState, startFakeMoviePilot, torrentContext } from './moviepilot/index.js';
export type {
  DownloadRecord as MoviePilotDownload,
  FakeMoviePilot,
  FakeMoviePilotOptions,
  MediaTypeCn,
  MoviePilotMode,
  ServarrItem,
  Subscription as MoviePilotSubscription,
  TorrentContext,
  TorrentSeed,
} from './moviepilot/index.js';

// Stripe fake: checkout sessions for the official SDK, hosted page, signed webhooks (spec 50 §5).
export {
  parseStripeForm,
  serialiseEvent as serialiseStripeEvent,
  startFakeStripe,
  stripeSignatureHeader,
} from './stripe/index.js';
export type {
  ActionResult as StripeActionResult,
  CheckoutEventType,
  CheckoutSession,
  Completion as CheckoutCompletion,
  FakeStripe,
  FakeStripeOptions,
  StripeEvent,
  StripeWebhookDelivery,
} from './stripe/index.js';

// SMTP fake on smtp-server, with a small MIME reader for captured mail (spec 50 §7).
export {
  FAKE_SMTP_CERT,
  FAKE_TLS_KEY,
  decodeWords as decodeMimeWords,
  parseAddresses as parseMailAddresses,
  parseMime,
  startFakeSmtp,
} from './smtp/index.js';
export type {
  Address as MailAddress,
  CapturedMail,
  FakeSmtp,
  FakeSmtpOptions,
  MimePart,
  SmtpFaults,
  SmtpSecurity,
} from './smtp/index.js';

// OpenID Provider on the certified `oidc-provider` package, and a tiny browser that signs in at it.
export * from './oidc/index.js';

// The demo world (`npm run demo`): one deterministic seed told consistently to every fake.
export * from './demo/index.js';

// Test helpers: `eventually` (poll until an assertion holds) and `describeWhen` (a suite that
// needs an outside tool: skipped locally without it, failing on CI).
export * from './support/index.js';

// Shared by the HTTP fakes above.
export type { FaultSwitches } from './fake-server/http-server.js';
export type { RecordedRequest } from './fake-server/reply.js';

// The scale fixture: a 100 000-member community and its media server (issue 33).
export * from './scale/index.js';
