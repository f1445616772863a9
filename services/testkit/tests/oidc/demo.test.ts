// `npm run demo` offers single sign-on: the demo fakes start the OpenID Provider with Usher's
// redirect URI registered, and hand Usher the sso settings through their env fallbacks.
import { startDemoFakes, type DemoFakes } from '../../src/demo/fakes.js';

describe('demo fakes: single sign-on', () => {
  let fakes: DemoFakes;
  beforeAll(async () => {
    fakes = await startDemoFakes({
      seed: 5,
      movies: 4,
      shows: 1,
      users: 2,
      usherUrl: 'http://localhost:8080',
    });
  });
  afterAll(() => fakes.close());

  it('should start the provider and point Usher at it', async () => {
    expect(fakes.oidc).not.toBeNull();
    expect(fakes.env).toMatchObject({
      OIDC_ENABLED: 'true',
      OIDC_ISSUER_URL: fakes.oidc!.issuer,
      OIDC_CLIENT_ID: 'usher',
    });
    expect(fakes.oidc!.clients[0]!.redirectUris).toEqual([
      'http://localhost:8080/api/v1/auth/oidc/callback',
    ]);
    const discovery = (await (await fetch(fakes.oidc!.discoveryUrl)).json()) as { issuer: string };
    expect(discovery.issuer).toBe(fakes.oidc!.issuer);
  });
});
