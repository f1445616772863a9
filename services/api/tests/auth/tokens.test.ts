import { createHmac, hkdfSync } from 'node:crypto';
import { TOKEN_LIFETIME_SECONDS, TokenSigner } from '../../src/auth/tokens.js';

const b64url = (b: Buffer | string) => Buffer.from(b).toString('base64url');

describe('TokenSigner', () => {
  const secret = 'a1b2c3d4'.repeat(8);

  it('should sign HS256 with the HKDF key (info usher/jwt/v1), not with the raw secret', async () => {
    const signer = new TokenSigner(secret);
    const now = new Date('2026-01-01T00:00:00Z');
    const { token, expiresAt } = await signer.sign({ sub: 'u1', role: 'user', ver: 3 }, now);
    expect(expiresAt.getTime() - now.getTime()).toBe(TOKEN_LIFETIME_SECONDS * 1000);
    const [header, payload, signature] = token.split('.');
    expect(JSON.parse(Buffer.from(header!, 'base64url').toString())).toEqual({
      alg: 'HS256',
      typ: 'JWT',
    });
    expect(JSON.parse(Buffer.from(payload!, 'base64url').toString())).toMatchObject({
      sub: 'u1',
      role: 'user',
      ver: 3,
    });
    const key = Buffer.from(hkdfSync('sha256', secret, '', 'usher/jwt/v1', 32));
    expect(signature).toBe(
      b64url(createHmac('sha256', key).update(`${header}.${payload}`).digest()),
    );
    expect(signature).not.toBe(
      b64url(createHmac('sha256', secret).update(`${header}.${payload}`).digest()),
    );
  });

  it('should reject tampered, foreign, alg-none and expired tokens', async () => {
    const signer = new TokenSigner(secret);
    const { token } = await signer.sign({ sub: 'u1', role: 'admin', ver: 0 });
    expect(await signer.verify(token)).toEqual({ sub: 'u1', role: 'admin', ver: 0 });
    const [h, p, s] = token.split('.');
    const forged = b64url(
      JSON.stringify({
        ...JSON.parse(Buffer.from(p!, 'base64url').toString()),
        role: 'admin',
        sub: 'u2',
      }),
    );
    expect(await signer.verify(`${h}.${forged}.${s}`)).toBeNull();
    expect(await new TokenSigner('f0e1d2c3'.repeat(8)).verify(token)).toBeNull();
    const none = `${b64url(JSON.stringify({ alg: 'none', typ: 'JWT' }))}.${p}.`;
    expect(await signer.verify(none)).toBeNull();
    const old = await signer.sign(
      { sub: 'u1', role: 'user', ver: 0 },
      new Date(Date.now() - 8 * 86400_000),
    );
    expect(await signer.verify(old.token)).toBeNull();
  });

  it('should refuse a token signed with the real key but without exp', async () => {
    const key = new Uint8Array(hkdfSync('sha256', secret, '', 'usher/jwt/v1', 32));
    const claims = { sub: 'u1', role: 'admin', ver: 0, iss: 'usher', aud: 'usher-api' };
    const signed = (payload: object) => {
      const head = `${b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))}.${b64url(JSON.stringify(payload))}`;
      return `${head}.${b64url(createHmac('sha256', key).update(head).digest())}`;
    };
    const iat = Math.floor(Date.now() / 1000);
    const signer = new TokenSigner(secret);
    // The hand-made signature is right: the same claims with exp verify.
    expect(await signer.verify(signed({ ...claims, iat, exp: iat + 60 }))).toEqual({
      sub: 'u1',
      role: 'admin',
      ver: 0,
    });
    expect(await signer.verify(signed({ ...claims, iat }))).toBeNull();
  });
});
