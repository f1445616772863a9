import { SECRET_BINDINGS } from '../../src/settings-store/binding.js';
import { DEFINITIONS_BY_KEY, SETTING_DEFINITIONS } from '../../src/settings-store/definitions.js';

/** Secrets Usher never sends anywhere, or whose destination no admin can change (docs/settings.md). */
const UNBOUND = {
  MEDIA_SERVER_WEBHOOK_TOKEN: 'inbound: the media server sends it to us',
  STRIPE_WEBHOOK_SECRET: 'inbound: Stripe signs with it',
  STRIPE_SECRET_KEY: 'goes to STRIPE_API_BASE, a deployment variable',
  NOTIFY_WEBHOOK_URL: 'is its own destination: the secret is the address (a Discord webhook URL)',
};

describe('secret bindings (registry)', () => {
  it('should bind every secret to its destinations, or say why it needs none', () => {
    const secrets = SETTING_DEFINITIONS.filter((d) => 'sensitive' in d && d.sensitive);
    const bound = new Set(SECRET_BINDINGS.map((b) => b.secret));

    for (const d of secrets) {
      expect([d.key, bound.has(d.key) || Object.hasOwn(UNBOUND, d.key)]).toEqual([d.key, true]);
    }
    expect(SECRET_BINDINGS.map((b) => b.secret)).toEqual([
      'MEDIA_SERVER_API_KEY',
      'TMDB_API_KEY',
      'MOVIEPILOT_PASSWORD',
      'AUTOMATION_API_KEY',
      'AUTOMATION_SERIES_API_KEY',
      'SMTP_PASSWORD',
      'OIDC_CLIENT_SECRET',
    ]);
  });

  it('should keep each destination a non-secret setting of the secret own group', () => {
    for (const b of SECRET_BINDINGS) {
      expect(b.destinations.length).toBeGreaterThan(0);
      for (const key of b.destinations) {
        const def = DEFINITIONS_BY_KEY.get(key)!;
        expect([key, def.group, def.sensitive ?? false]).toEqual([key, b.group, false]);
      }
    }
  });
});
