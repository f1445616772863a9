// Starts every fake on loopback ephemeral ports, loaded with one demo world, and says how Usher
// reaches them: `env` holds the settings' same-name env fallbacks (30-settings §1) plus
// STRIPE_API_BASE. The demo launcher and the consistency tests share this core.
import { hexId } from '../media-server/state.js';
import { startFakeMediaServer } from '../media-server/server.js';

/** The demo media server's own zone (its Playback Reporting times are local to it). */
const DEMO_SERVER_ZONE = 'Europe/Berlin';
import type { FakeMediaServer } from '../media-server/server.js';
import type { Flavour } from '../media-server/types.js';
import { startFakeMoviePilot } from '../moviepilot/server.js';
import type { FakeMoviePilot } from '../moviepilot/server.js';
import { startFakeSmtp } from '../smtp/server.js';
import type { FakeSmtp } from '../smtp/server.js';
import { startFakeStripe } from '../stripe/server.js';
import type { FakeStripe } from '../stripe/server.js';
import { startFakeTelegram } from '../telegram/server.js';
import type { FakeTelegram } from '../telegram/server.js';
import { startFakeTmdb } from '../tmdb/server.js';
import { startFakeOidcProvider, type FakeOidcProvider } from '../oidc/provider.js';
import type { FakeTmdb } from '../tmdb/server.js';
import { loadWorldIntoMediaServer } from './media.js';
import type { LoadedWorld } from './media.js';
import { worldSubscriptions, worldTorrents } from './moviepilot.js';
import { createRng } from './prng.js';
import { buildDemoWorld } from './world.js';
import type { DemoWorld, DemoWorldOptions } from './world.js';

/** Chats the fake Telegram knows: where the bot would post admin events and rankings. */
export const DEMO_ADMIN_CHAT_ID = -1001000000001;
export const DEMO_GROUP_CHAT_ID = -1001000000002;

export interface DemoFakesOptions extends DemoWorldOptions {
  /** Media server flavour (default jellyfin). */
  flavour?: Flavour;
  /** Base URL of the Usher API, for webhooks (media server, Stripe) and PUBLIC_WEB_URL. */
  usherUrl?: string;
  /** Clock of the fakes (sessions, tokens, events); default: the real time. */
  clock?: () => Date;
}

export interface DemoFakes {
  world: DemoWorld;
  loaded: LoadedWorld;
  mediaServer: FakeMediaServer;
  tmdb: FakeTmdb;
  moviePilot: FakeMoviePilot;
  stripe: FakeStripe;
  smtp: FakeSmtp;
  telegram: FakeTelegram;
  /** The identity provider for single sign-on (docs/sso.md); only when `usherUrl` is known. */
  oidc: FakeOidcProvider | null;
  /** For the Usher API: runtime settings through their env fallbacks, plus STRIPE_API_BASE. */
  env: Record<string, string>;
  /** For a Usher bot pointed at the fake Bot API. */
  botEnv: Record<string, string>;
  close(): Promise<void>;
}

/** Credentials derived from the seed: stable across runs, and valid for Usher's settings. */
function credentials(seed: number) {
  const hex = (label: string) => hexId(`demo:${seed}:${label}`);
  return {
    mediaKey: hex('media-key'),
    webhookToken: hex('webhook-token') + hex('webhook-token-2'),
    tmdbKey: hex('tmdb-key'),
    moviePilotPassword: `mp-${hex('moviepilot').slice(0, 16)}`,
    smtpPassword: `smtp-${hex('smtp').slice(0, 16)}`,
    oidcSecret: `oidc-${hex('oidc-client')}`,
    stripeKey: `sk_test_demo${hex('stripe-key')}`,
    stripeWebhook: `whsec_demo${hex('stripe-webhook')}`,
    botToken: `7${String(seed).padStart(9, '0').slice(-9)}:AAdemo${hex('bot').slice(0, 29)}`,
  };
}

export async function startDemoFakes(options: DemoFakesOptions = {}): Promise<DemoFakes> {
  const world = buildDemoWorld(options);
  const flavour = options.flavour ?? 'jellyfin';
  const clock = options.clock ?? (() => new Date());
  const ms = () => clock().getTime();
  const cred = credentials(world.seed);
  const started: { close(): Promise<void> }[] = [];
  const track = <T extends { close(): Promise<void> }>(fake: T): T => {
    started.push(fake);
    return fake;
  };
  const close = async () => {
    await Promise.allSettled(started.map((f) => f.close()));
  };

  try {
    const mediaServer = track(
      await startFakeMediaServer({
        flavour,
        apiKey: cred.mediaKey,
        serverName: flavour === 'emby' ? 'Usher Demo Emby' : 'Usher Demo Jellyfin',
        // A home server in its owner's zone: Playback Reporting writes local time there.
        timeZone: DEMO_SERVER_ZONE,
        now: clock,
      }),
    );
    const loaded = loadWorldIntoMediaServer(mediaServer.state, world);
    const tmdb = track(
      await startFakeTmdb({ apiKey: cred.tmdbKey, today: world.today, fixtures: world.tmdb }),
    );
    const moviePilot = track(
      await startFakeMoviePilot({ username: 'usher', password: cred.moviePilotPassword, now: ms }),
    );
    const mp = moviePilot.state;
    mp.torrents.push(
      ...worldTorrents(createRng(world.seed).fork('torrents'), world, mp.torrents.length),
    );
    mp.subscriptions.push(...worldSubscriptions(world, () => mp.allocateId()));
    const usher = options.usherUrl?.replace(/\/+$/, '');
    const stripe = track(
      await startFakeStripe({
        secretKey: cred.stripeKey,
        webhookSecret: cred.stripeWebhook,
        ...(usher ? { webhookUrl: `${usher}/api/v1/webhooks/stripe` } : {}),
        now: ms,
      }),
    );
    const smtp = track(
      await startFakeSmtp({ security: 'none', auth: { user: 'usher', pass: cred.smtpPassword } }),
    );
    const telegram = track(
      await startFakeTelegram({
        token: cred.botToken,
        bot: { first_name: 'Usher Demo', username: 'usher_demo_bot' },
        now: ms,
      }),
    );
    telegram.seedChat({ id: DEMO_ADMIN_CHAT_ID, type: 'supergroup', title: 'Usher Admins' });
    telegram.seedChat({ id: DEMO_GROUP_CHAT_ID, type: 'supergroup', title: 'Movie Night Club' });

    // Single sign-on against a real OpenID Provider, laid out like Authentik (docs/sso.md).
    let oidc: FakeOidcProvider | null = null;
    if (usher) {
      const provider = await startFakeOidcProvider({
        issuerPath: '/application/o/usher/',
        clients: [
          {
            clientId: 'usher',
            clientSecret: cred.oidcSecret,
            redirectUris: [`${usher}/api/v1/auth/oidc/callback`],
          },
        ],
      });
      oidc = provider;
      track({ close: () => provider.stop() });
    }

    if (usher) {
      // New items added through the control API reach Usher like a real server's webhook.
      const hook = `${usher}/api/v1/webhooks/media-server`;
      mediaServer.state.webhook =
        flavour === 'emby'
          ? { ...mediaServer.state.webhook, url: `${hook}?token=${cred.webhookToken}` }
          : {
              ...mediaServer.state.webhook,
              url: hook,
              jellyfinFormat: 'json',
              headers: { 'X-Usher-Webhook-Token': cred.webhookToken },
            };
    }

    const env: Record<string, string> = {
      MEDIA_SERVER_KIND: flavour,
      MEDIA_SERVER_URL: mediaServer.url,
      MEDIA_SERVER_API_KEY: cred.mediaKey,
      MEDIA_SERVER_WEBHOOK_TOKEN: cred.webhookToken,
      MEDIA_SERVER_TIMEZONE: DEMO_SERVER_ZONE,
      TMDB_API_KEY: cred.tmdbKey,
      TMDB_API_BASE: tmdb.apiBase,
      TMDB_IMAGE_BASE: tmdb.imageBase,
      AUTOMATION_KIND: 'moviepilot',
      AUTOMATION_URL: moviePilot.url,
      MOVIEPILOT_USERNAME: moviePilot.username,
      MOVIEPILOT_PASSWORD: moviePilot.password,
      SMTP_HOST: smtp.host,
      SMTP_PORT: String(smtp.port),
      SMTP_SECURITY: 'none',
      SMTP_FROM: 'Usher Demo <no-reply@usher.demo>',
      SMTP_USERNAME: 'usher',
      SMTP_PASSWORD: cred.smtpPassword,
      STRIPE_SECRET_KEY: stripe.secretKey,
      STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
      STRIPE_API_BASE: stripe.url,
      MESSENGER_ADMIN_CHAT_ID: String(DEMO_ADMIN_CHAT_ID),
      MESSENGER_GROUP_CHAT_ID: String(DEMO_GROUP_CHAT_ID),
      ...(usher ? { PUBLIC_WEB_URL: usher } : {}),
      ...(oidc
        ? {
            OIDC_ENABLED: 'true',
            OIDC_ISSUER_URL: oidc.issuer,
            OIDC_CLIENT_ID: 'usher',
            OIDC_CLIENT_SECRET: cred.oidcSecret,
            OIDC_SCOPES: 'openid profile email groups',
            OIDC_BUTTON_LABEL: 'Sign in with the demo IdP',
            OIDC_ADMIN_GROUPS: 'usher-admins',
          }
        : {}),
    };
    const botEnv = { MESSENGER_API_ROOT: telegram.url, MESSENGER_BOT_TOKEN: telegram.token };
    return {
      world,
      loaded,
      mediaServer,
      tmdb,
      moviePilot,
      stripe,
      smtp,
      telegram,
      oidc,
      env,
      botEnv,
      close,
    };
  } catch (err) {
    // A fake that failed to start must not leave the others listening.
    await close();
    throw err;
  }
}
