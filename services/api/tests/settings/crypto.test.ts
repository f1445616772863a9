import { SettingsCipher, maskSecret } from '../../src/settings-store/crypto.js';

const KEY_A = 'ab'.repeat(32);
const KEY_B = 'cd'.repeat(32);

describe('SettingsCipher', () => {
  it('should round-trip with a fresh nonce per write and an 8-hex key id', () => {
    const cipher = new SettingsCipher(KEY_A);
    const one = cipher.encrypt('SMTP_PASSWORD', 'hunter2-hunter2');
    const two = cipher.encrypt('SMTP_PASSWORD', 'hunter2-hunter2');
    expect(one).not.toBe(two);
    expect(one).toMatch(/^v1\.[0-9a-f]{8}\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+$/);
    expect(one).not.toContain('hunter2');
    expect(cipher.keyId).toBe(new SettingsCipher(` ${KEY_A}\n`).keyId);
    expect(one.split('.')[1]).toBe(cipher.keyId);
    expect(cipher.decrypt('SMTP_PASSWORD', one)).toEqual({ ok: true, value: 'hunter2-hunter2' });
  });

  it('should detect tampering, a value moved to another key, a changed key and bad formats', () => {
    const cipher = new SettingsCipher(KEY_A);
    const envelope = cipher.encrypt('TMDB_API_KEY', '0123456789abcdef0123456789abcdef');
    const parts = envelope.split('.');
    const body = Buffer.from(parts[3]!, 'base64url');
    body[0] = body[0]! ^ 1;
    const tampered = [...parts.slice(0, 3), body.toString('base64url')].join('.');
    expect(cipher.decrypt('TMDB_API_KEY', tampered)).toEqual({ ok: false, reason: 'corrupt' });
    expect(cipher.decrypt('SMTP_PASSWORD', envelope)).toEqual({ ok: false, reason: 'corrupt' });
    expect(new SettingsCipher(KEY_B).decrypt('TMDB_API_KEY', envelope)).toEqual({
      ok: false,
      reason: 'key_changed',
    });
    for (const bad of ['plain', 'v2.abcdef01.x.y', `v1.${cipher.keyId}.short.x`, 'v1.zz.a.b']) {
      expect(cipher.decrypt('TMDB_API_KEY', bad)).toEqual({ ok: false, reason: 'format' });
    }
  });

  it('should mask as •••• plus the last 4 characters only from 12 characters on', () => {
    expect(maskSecret('sk_test_1234567890')).toBe('••••7890');
    expect(maskSecret('short-value')).toBe('••••');
  });
});
