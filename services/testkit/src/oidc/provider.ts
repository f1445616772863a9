// A real OpenID Provider for tests, the e2e and the demo: the OpenID Certified `oidc-provider`
// package, configured with one confidential client and a few users. It speaks the real protocol
// (discovery, JWKS, authorization code + PKCE, token, userinfo); this file only adds the parts a
// test needs around it: a tiny login page, key rotation, and switches that make the provider
// misbehave the way broken or hostile providers do (a re-signed ID token, a hang, a crash).
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';
import Provider, { type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import { memoryAdapterFactory } from './adapter.js';
import { loginPage } from './login-page.js';

/** A person who can sign in at the fake provider. */
export interface OidcUser {
  /** Stable subject (`sub`). */
  sub: string;
  username: string;
  password: string;
  email?: string;
  emailVerified?: boolean;
  name?: string;
  groups?: string[];
}

export interface OidcClient {
  clientId: string;
  /** Absent: a public client (PKCE only, `token_endpoint_auth_method: none`). */
  clientSecret?: string;
  redirectUris: string[];
  /** `id_token_signed_response_alg` (default RS256). oidc-provider 9 never signs with `none`. */
  idTokenAlg?: string;
}

export interface FakeOidcOptions {
  /** Path of the issuer under the listener, e.g. `/application/o/usher/` (Authentik's layout). */
  issuerPath?: string;
  /** Fixed port (the demo); default an ephemeral one. */
  port?: number;
  clients?: OidcClient[];
  users?: OidcUser[];
  /** Extra paths (outside the issuer) that also serve the discovery document. */
  extraDiscoveryPaths?: string[];
  /** Lifetime of ID tokens in seconds (default 3600). */
  idTokenTtlSeconds?: number;
}

/** What a test changes in the next ID tokens the provider hands out (re-signed with its key). */
export interface IdTokenTamper {
  /** Claims to overwrite (`iss`, `aud`, `nonce`, `exp`, …). */
  claims?: Record<string, unknown>;
  /** `none`: an unsigned token (`alg: none`); `foreign`: signed by a key not in the JWKS. */
  signature?: 'none' | 'foreign';
}

export interface FakeOidcProvider {
  /** The issuer identifier exactly as the provider writes it into `iss`. */
  issuer: string;
  /** Where the discovery document lives (under the issuer). */
  discoveryUrl: string;
  /** Base address of the listener (`http://127.0.0.1:port`). */
  origin: string;
  users: OidcUser[];
  clients: OidcClient[];
  /** Replaces the client list (e.g. once the relying party's port is known). */
  setClients(clients: OidcClient[]): Promise<void>;
  /** A new signing key is used from now on; the old one stays published in the JWKS. */
  rotateKeys(): Promise<void>;
  /** The next token responses carry a changed ID token (until `tamper(null)`). */
  tamper(change: IdTokenTamper | null): void;
  /** `hang`: accept connections, never answer; `error`: 500 to everything; null: normal. */
  fault(mode: 'hang' | 'error' | null): void;
  /** Kids of the published signing keys, newest first. */
  keyIds(): string[];
  stop(): Promise<void>;
}

interface SigningKey {
  kid: string;
  privateJwk: JWK;
  privateKey: Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];
}

async function newSigningKey(): Promise<SigningKey> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const kid = randomBytes(8).toString('hex');
  const privateJwk = { ...(await exportJWK(privateKey)), kid, alg: 'RS256', use: 'sig' };
  return { kid, privateJwk, privateKey };
}

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** Demo and test people: a member, an admin (by group) and one without a verified address. */
export const DEFAULT_OIDC_USERS: OidcUser[] = [
  {
    sub: 'a1b2c3-alice',
    username: 'alice',
    password: 'alice-password',
    email: 'alice@idp.example',
    emailVerified: true,
    name: 'Alice Member',
    groups: ['media-members'],
  },
  {
    sub: 'd4e5f6-ada',
    username: 'ada',
    password: 'ada-password',
    email: 'ada@idp.example',
    emailVerified: true,
    name: 'Ada Admin',
    groups: ['media-members', 'usher-admins'],
  },
  {
    sub: '0987-unverified-uma',
    username: 'uma',
    password: 'uma-password',
    email: 'uma@idp.example',
    emailVerified: false,
    name: 'Uma Unverified',
    groups: [],
  },
];

/** Starts the provider on 127.0.0.1. */
export async function startFakeOidcProvider(
  options: FakeOidcOptions = {},
): Promise<FakeOidcProvider> {
  const users = options.users ?? DEFAULT_OIDC_USERS.map((u) => ({ ...u }));
  let clients: OidcClient[] = options.clients ?? [];
  const keys: SigningKey[] = [await newSigningKey()];
  const cookieKeys = [randomBytes(32).toString('hex')];
  let tamper: IdTokenTamper | null = null;
  let faultMode: 'hang' | 'error' | null = null;
  const issuerPath = options.issuerPath ?? '/';
  const extraPaths = options.extraDiscoveryPaths ?? [];
  // Shared by every rebuild (key rotation, new clients): sessions and codes survive them.
  const adapter = memoryAdapterFactory();

  const server: Server = createServer();
  const hanging = new Set<ServerResponse>();
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const issuer = `${origin}${issuerPath}`;
  // Where the provider's own routes are mounted (the issuer's path without its trailing slash).
  const mount = issuerPath.replace(/\/$/, '');
  const discoveryUrl = `${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;

  const byUsername = (name: string) => users.find((u) => u.username === name);
  const bySub = (sub: string) => users.find((u) => u.sub === sub);

  function configuration(): Configuration {
    return {
      adapter: adapter as never,
      clients: clients.map((c) => ({
        client_id: c.clientId,
        ...(c.clientSecret
          ? { client_secret: c.clientSecret, token_endpoint_auth_method: 'client_secret_basic' }
          : { token_endpoint_auth_method: 'none' }),
        redirect_uris: c.redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        id_token_signed_response_alg: (c.idTokenAlg ?? 'RS256') as never,
      })),
      jwks: { keys: keys.map((k) => k.privateJwk) as never },
      cookies: { keys: cookieKeys },
      claims: {
        openid: ['sub'],
        email: ['email', 'email_verified'],
        profile: ['name', 'preferred_username'],
        groups: ['groups'],
      },
      scopes: ['openid', 'email', 'profile', 'groups'],
      features: { devInteractions: { enabled: false } },
      pkce: { required: () => true },
      ttl: {
        AuthorizationCode: 60,
        IdToken: options.idTokenTtlSeconds ?? 3600,
        AccessToken: 3600,
        Interaction: 600,
        Session: 3600,
        Grant: 3600,
      },
      interactions: { url: (_ctx, interaction) => `${mount}/interaction/${interaction.uid}` },
      findAccount: async (_ctx, sub) => {
        const user = bySub(sub);
        if (!user) return undefined;
        return {
          accountId: sub,
          claims: async () => ({
            sub,
            preferred_username: user.username,
            name: user.name,
            email: user.email,
            email_verified: user.emailVerified ?? false,
            groups: user.groups ?? [],
          }),
        };
      },
      // A first-party client: consent is implied, as an operator configures it in Authentik or
      // Keycloak ("implicit consent"), so the flow is login → code.
      loadExistingGrant: async (ctx: KoaContextWithOIDC) => {
        const session = ctx.oidc.session!;
        const clientId = ctx.oidc.client!.clientId;
        const existing = ctx.oidc.result?.consent?.grantId || session.grantIdFor(clientId);
        if (existing) return ctx.oidc.provider.Grant.find(existing);
        const grant = new ctx.oidc.provider.Grant({ clientId, accountId: session.accountId! });
        grant.addOIDCScope('openid email profile groups');
        await grant.save();
        session.grantIdFor(clientId, grant.jti);
        return grant;
      },
      renderError: async (ctx, out) => {
        ctx.type = 'html';
        ctx.body = `<!doctype html><title>Error</title><p>${String(out.error)}: ${String(out.error_description ?? '')}</p>`;
      },
    };
  }

  function reSign(idToken: string, change: IdTokenTamper): Promise<string> | string {
    const [headerPart, payloadPart] = idToken.split('.');
    const header = JSON.parse(Buffer.from(headerPart!, 'base64url').toString()) as {
      kid?: string;
    };
    const payload = {
      ...(JSON.parse(Buffer.from(payloadPart!, 'base64url').toString()) as object),
      ...change.claims,
    };
    if (change.signature === 'none') return `${b64url({ alg: 'none' })}.${b64url(payload)}.`;
    const sign = async (key: SigningKey) =>
      new SignJWT(payload as never)
        .setProtectedHeader({ alg: 'RS256', kid: key.kid, typ: 'JWT' })
        .sign(key.privateKey);
    if (change.signature === 'foreign') return newSigningKey().then(sign);
    return sign(keys.find((k) => k.kid === header.kid) ?? keys[0]!);
  }

  function build(): Provider {
    const provider = new Provider(issuer, configuration());
    provider.proxy = false;
    provider.use(async (ctx, next) => {
      await next();
      const body = ctx.body as { id_token?: string } | undefined;
      if (tamper && ctx.path === '/token' && body?.id_token) {
        body.id_token = await reSign(body.id_token, tamper);
      }
    });
    return provider;
  }
  let provider = build();

  async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return new URLSearchParams(Buffer.concat(chunks).toString());
  }

  function html(res: ServerResponse, status: number, body: string) {
    res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
    res.end(body);
  }

  /** The login page of an interaction, and its form post. */
  async function interaction(req: IncomingMessage, res: ServerResponse, rest: string) {
    const [uid, action] = rest.split('/');
    const details = await provider.interactionDetails(req, res);
    if (details.uid !== uid) return html(res, 400, 'interaction mismatch');
    if (req.method === 'GET') {
      return html(res, 200, loginPage({ action: `${mount}/interaction/${uid}/login`, users }));
    }
    const form = await readForm(req);
    if (action === 'abort') {
      return provider.interactionFinished(req, res, {
        error: 'access_denied',
        error_description: 'The user cancelled the sign-in',
      });
    }
    const user = byUsername(form.get('username') ?? '');
    if (!user || user.password !== form.get('password')) {
      return html(
        res,
        200,
        loginPage({
          action: `${mount}/interaction/${uid}/login`,
          users,
          error: 'Wrong username or password',
        }),
      );
    }
    return provider.interactionFinished(
      req,
      res,
      { login: { accountId: user.sub } },
      { mergeWithLastSubmission: false },
    );
  }

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (faultMode === 'hang') {
      hanging.add(res);
      return;
    }
    if (faultMode === 'error') {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end('internal error');
      return;
    }
    const url = new URL(req.url ?? '/', origin);
    if (req.method === 'GET' && extraPaths.includes(url.pathname)) {
      // The same document the provider publishes, served from another place.
      void fetch(discoveryUrl)
        .then(async (r) => {
          res.writeHead(r.status, { 'content-type': 'application/json' });
          res.end(await r.text());
        })
        .catch(() => {
          res.writeHead(502);
          res.end();
        });
      return;
    }
    if (!url.pathname.startsWith(`${mount}/`) && url.pathname !== mount) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
      return;
    }
    const inner = url.pathname.slice(mount.length) || '/';
    const original = req.url!;
    if (inner.startsWith('/interaction/')) {
      interaction(req, res, inner.slice('/interaction/'.length)).catch((err: unknown) => {
        html(res, 400, `interaction failed: ${(err as Error).message}`);
      });
      return;
    }
    // Mounted under the issuer's path: oidc-provider reads the mount from originalUrl.
    (req as IncomingMessage & { originalUrl?: string }).originalUrl = original;
    req.url = inner + url.search;
    void provider.callback()(req, res);
  });

  const fake: FakeOidcProvider = {
    issuer,
    discoveryUrl,
    origin,
    users,
    get clients() {
      return clients;
    },
    async setClients(next) {
      clients = next;
      provider = build();
    },
    async rotateKeys() {
      keys.unshift(await newSigningKey());
      provider = build();
    },
    tamper(change) {
      tamper = change;
    },
    fault(mode) {
      faultMode = mode;
      if (mode !== 'hang') {
        for (const res of hanging) res.destroy();
        hanging.clear();
      }
    },
    keyIds: () => keys.map((k) => k.kid),
    async stop() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return fake;
}
