import { createHmac, hkdfSync } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import { TOKEN_LIFETIME_SECONDS, TokenSigner } from '../../src/security/tokens.js';

const b64url = (b: Buffer | string) => Buffer.from(b).toString('base64url');
const U1 = '0190a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a2b';
const U2 = '0190a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a2c';
const U9 = '0190a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a29';

describe('TokenSigner', () => {
  const secret = 'a1b2c3d4'.repeat(8);

  it('should sign HS256 with the HKDF key (info usher/jwt/v1), not with the raw secret', async () => {
    const signer = new TokenSigner(secret);
    const now = new Date('2026-01-01T00:00:00Z');
    const { token, expiresAt } = await signer.sign({ sub: U1, role: 'user', ver: 3 }, now);
    expect(expiresAt.getTime() - now.getTime()).toBe(TOKEN_LIFETIME_SECONDS * 1000);
    const [header, payload, signature] = token.split('.');
    expect(JSON.parse(Buffer.from(header!, 'base64url').toString())).toEqual({
      alg: 'HS256',
      typ: 'JWT',
    });
    expect(JSON.parse(Buffer.from(payload!, 'base64url').toString())).toMatchObject({
      sub: U1,
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
    const { token } = await signer.sign({ sub: U1, role: 'admin', ver: 0 });
    expect(await signer.verify(token)).toEqual({ sub: U1, role: 'admin', ver: 0 });
    const [h, p, s] = token.split('.');
    const forged = b64url(
      JSON.stringify({
        ...JSON.parse(Buffer.from(p!, 'base64url').toString()),
        role: 'admin',
        sub: U2,
      }),
    );
    expect(await signer.verify(`${h}.${forged}.${s}`)).toBeNull();
    expect(await new TokenSigner('f0e1d2c3'.repeat(8)).verify(token)).toBeNull();
    const none = `${b64url(JSON.stringify({ alg: 'none', typ: 'JWT' }))}.${p}.`;
    expect(await signer.verify(none)).toBeNull();
    const old = await signer.sign(
      { sub: U1, role: 'user', ver: 0 },
      new Date(Date.now() - 8 * 86400_000),
    );
    expect(await signer.verify(old.token)).toBeNull();
  });

  it('should refuse a token signed with the real key but without exp', async () => {
    const key = new Uint8Array(hkdfSync('sha256', secret, '', 'usher/jwt/v1', 32));
    const claims = { sub: U1, role: 'admin', ver: 0, iss: 'usher', aud: 'usher-api' };
    const signed = (payload: object) => {
      const head = `${b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))}.${b64url(JSON.stringify(payload))}`;
      return `${head}.${b64url(createHmac('sha256', key).update(head).digest())}`;
    };
    const iat = Math.floor(Date.now() / 1000);
    const signer = new TokenSigner(secret);
    // The hand-made signature is right: the same claims with exp verify.
    expect(await signer.verify(signed({ ...claims, iat, exp: iat + 60 }))).toEqual({
      sub: U1,
      role: 'admin',
      ver: 0,
    });
    expect(await signer.verify(signed({ ...claims, iat }))).toBeNull();
  });

  it('should sign byte for byte as jose did, and jose should accept the token', async () => {
    const key = new Uint8Array(hkdfSync('sha256', secret, '', 'usher/jwt/v1', 32));
    const now = new Date('2026-03-01T12:00:00Z');
    const iat = Math.floor(now.getTime() / 1000);
    const fromJose = await new SignJWT({ role: 'user', ver: 7 })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(U9)
      .setIssuer('usher')
      .setAudience('usher-api')
      .setIssuedAt(iat)
      .setExpirationTime(iat + TOKEN_LIFETIME_SECONDS)
      .sign(key);
    const { token } = await new TokenSigner(secret).sign({ sub: U9, role: 'user', ver: 7 }, now);
    expect(token).toBe(fromJose);
    const fresh = await new TokenSigner(secret).sign({ sub: U9, role: 'user', ver: 7 });
    const { payload } = await jwtVerify(fresh.token, key, {
      issuer: 'usher',
      audience: 'usher-api',
    });
    expect(payload).toMatchObject({ sub: U9, role: 'user', ver: 7 });
  });

  it('should refuse what jose refused: crit or b64 headers, other issuers or audiences, a future nbf, a non-numeric iat', async () => {
    const key = new Uint8Array(hkdfSync('sha256', secret, '', 'usher/jwt/v1', 32));
    const iat = Math.floor(Date.now() / 1000);
    const claims = {
      sub: U1,
      role: 'user',
      ver: 0,
      iss: 'usher',
      aud: 'usher-api',
      iat,
      exp: iat + 60,
    };
    const signed = (payload: object, header: object = { alg: 'HS256', typ: 'JWT' }) => {
      const head = `${b64url(JSON.stringify(header))}.${b64url(JSON.stringify(payload))}`;
      return `${head}.${b64url(createHmac('sha256', key).update(head).digest())}`;
    };
    const signer = new TokenSigner(secret);
    expect(await signer.verify(signed(claims))).toEqual({ sub: U1, role: 'user', ver: 0 });
    expect(await signer.verify(signed({ ...claims, aud: ['x', 'usher-api'] }))).not.toBeNull();
    for (const bad of [
      signed(claims, { alg: 'HS256', typ: 'JWT', crit: ['exp'] }),
      signed(claims, { alg: 'HS256', b64: false, crit: ['b64'] }),
      signed(claims, { alg: 'HS512', typ: 'JWT' }),
      signed({ ...claims, iss: 'other' }),
      signed({ ...claims, aud: 'other-api' }),
      signed({ ...claims, nbf: iat + 3600 }),
      signed({ ...claims, iat: String(iat) }),
      signed({ ...claims, exp: String(iat + 60) }),
      signed({ ...claims, exp: iat }),
      signed({ ...claims, sub: undefined }),
      signed({ ...claims, role: 'root' }),
      signed({ ...claims, ver: 1.5 }),
      signed([claims]),
      `${signed(claims)}x`,
      signed(claims).replace(/\.[^.]+$/, '.'),
      'a.b',
      'not a token',
    ]) {
      expect(await signer.verify(bad)).toBeNull();
    }
  });

  describe('remembered verifications', () => {
    const key = new Uint8Array(hkdfSync('sha256', secret, '', 'usher/jwt/v1', 32));
    const signed = (payload: object) => {
      const head = `${b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))}.${b64url(JSON.stringify(payload))}`;
      return `${head}.${b64url(createHmac('sha256', key).update(head).digest())}`;
    };
    const t0 = Date.parse('2026-03-01T12:00:00Z');
    const at = (ms: number) => Math.floor(ms / 1000);
    const claims = {
      sub: U1,
      role: 'user',
      ver: 2,
      iss: 'usher',
      aud: 'usher-api',
      iat: at(t0),
      nbf: at(t0) + 10,
      exp: at(t0) + 60,
    };

    it('should answer a repeated token as a fresh verification would: expiry and nbf by the clock of each call', () => {
      const signer = new TokenSigner(secret);
      const token = signed(claims);
      expect(signer.verifySync(token, t0 + 20_000)).toEqual({ sub: U1, role: 'user', ver: 2 });
      expect(signer.verifiedCount).toBe(1);
      expect(signer.verifySync(token, t0 + 30_000)).toEqual({ sub: U1, role: 'user', ver: 2 });
      expect(signer.verifySync(token, t0 + 5_000)).toBeNull();
      expect(signer.verifySync(token, t0 + 60_000)).toBeNull();
      expect(signer.verifySync(token, t0 + 59_000)).toEqual({ sub: U1, role: 'user', ver: 2 });
    });

    it('should not let a remembered token vouch for an altered one, nor hand out its claims to be changed', () => {
      const signer = new TokenSigner(secret);
      const token = signed(claims);
      const first = signer.verifySync(token, t0 + 20_000)!;
      first.role = 'admin';
      expect(signer.verifySync(token, t0 + 20_000)).toEqual({ sub: U1, role: 'user', ver: 2 });
      const [h, , s] = token.split('.');
      const altered = `${h}.${b64url(JSON.stringify({ ...claims, role: 'admin' }))}.${s}`;
      expect(signer.verifySync(altered, t0 + 20_000)).toBeNull();
      expect(signer.verifySync(`${token}x`, t0 + 20_000)).toBeNull();
      expect(new TokenSigner('f'.repeat(64)).verifySync(token, t0 + 20_000)).toBeNull();
    });

    it(`should remember at most ${TokenSigner.VERIFIED_CACHE_SIZE} tokens`, () => {
      const signer = new TokenSigner(secret);
      for (let i = 0; i < TokenSigner.VERIFIED_CACHE_SIZE + 50; i++) {
        expect(
          signer.verifySync(
            signed({ ...claims, sub: `${U1.slice(0, -4)}${String(i).padStart(4, '0')}` }),
            t0 + 20_000,
          ),
        ).not.toBeNull();
      }
      expect(signer.verifiedCount).toBe(TokenSigner.VERIFIED_CACHE_SIZE);
    });
  });

  it('should accept only the canonical spelling of a signature (no variant of its last character)', async () => {
    const signer = new TokenSigner(secret);
    const { token } = await signer.sign({ sub: U1, role: 'user', ver: 0 });
    const [h, p, s] = token.split('.') as [string, string, string];
    // 32 bytes are 43 base64url characters: the last one carries 2 unused bits, so three other
    // characters decode to the same bytes.
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const last = alphabet.indexOf(s.at(-1)!);
    const variants = [1, 2, 3].map(
      (d) => `${s.slice(0, -1)}${alphabet[(last & ~3) | ((last + d) & 3)]}`,
    );
    for (const v of variants)
      expect(Buffer.from(v, 'base64url')).toEqual(Buffer.from(s, 'base64url'));

    expect(await signer.verify(token)).toEqual({ sub: U1, role: 'user', ver: 0 });
    for (const v of variants) expect(await signer.verify(`${h}.${p}.${v}`)).toBeNull();
    expect(await signer.verify(`${h}.${p}.${s}=`)).toBeNull();
    expect(signer.verifiedCount).toBe(1);
  });

  it('should refuse a signed token whose sub is not a UUID', async () => {
    const signer = new TokenSigner(secret);
    for (const sub of ['u1', '', "1' or '1'='1", `${U1} `, U1.replace(/-/g, '')]) {
      const { token } = await signer.sign({ sub, role: 'admin', ver: 0 });
      expect([sub, await signer.verify(token)]).toEqual([sub, null]);
    }
  });
});
