// The fake provider checked with the certified relying-party library Usher uses (openid-client).
import * as client from 'openid-client';
import { signInAtProvider, startFakeOidcProvider, type FakeOidcProvider } from '../../src/index.js';

const REDIRECT = 'http://rp.test/callback';

describe('fake OpenID provider', () => {
  let idp: FakeOidcProvider;
  beforeAll(async () => {
    idp = await startFakeOidcProvider({
      issuerPath: '/application/o/usher/',
      clients: [{ clientId: 'usher', clientSecret: 'usher-secret', redirectUris: [REDIRECT] }],
    });
  });
  afterAll(() => idp.stop());

  async function codeFlow(username: string, password: string) {
    const config = await client.discovery(
      new URL(idp.issuer),
      'usher',
      'usher-secret',
      client.ClientSecretBasic('usher-secret'),
      { execute: [client.allowInsecureRequests] },
    );
    const verifier = client.randomPKCECodeVerifier();
    const nonce = client.randomNonce();
    const state = client.randomState();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT,
      scope: 'openid profile email groups',
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      nonce,
      state,
    });
    const { callbackUrl } = await signInAtProvider(url.href, { username, password }, REDIRECT);
    const tokens = await client.authorizationCodeGrant(config, new URL(callbackUrl), {
      pkceCodeVerifier: verifier,
      expectedNonce: nonce,
      expectedState: state,
      idTokenExpected: true,
    });
    const claims = tokens.claims()!;
    const info = await client.fetchUserInfo(config, tokens.access_token, claims.sub);
    return { config, claims, info };
  }

  it('should sign a user in with code + PKCE and answer userinfo with the groups', async () => {
    const { claims, info } = await codeFlow('ada', 'ada-password');
    expect(claims.iss).toBe(idp.issuer);
    expect(claims.aud).toBe('usher');
    expect(info).toMatchObject({
      sub: 'd4e5f6-ada',
      email: 'ada@idp.example',
      email_verified: true,
      groups: ['media-members', 'usher-admins'],
    });
  });

  it('should publish the new key after a rotation and sign with it', async () => {
    const before = idp.keyIds();
    await idp.rotateKeys();
    expect(idp.keyIds()).toHaveLength(before.length + 1);
    const jwks = (await (await fetch(`${idp.issuer}jwks`)).json()) as { keys: { kid: string }[] };
    expect(jwks.keys.map((k) => k.kid)).toEqual(expect.arrayContaining(idp.keyIds()));
    await codeFlow('alice', 'alice-password');
  });

  it('should refuse a wrong password on its login page', async () => {
    await expect(codeFlow('alice', 'nope')).rejects.toThrow(/provider answered 200/);
  });
});
