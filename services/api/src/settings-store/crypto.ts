import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

export type DecryptResult =
  { ok: true; value: string } | { ok: false; reason: 'format' | 'key_changed' | 'corrupt' };

const VERSION = 'v1';

/**
 * AES-256-GCM envelope for sensitive settings (30-settings.md §7):
 * `v1.<kid>.<b64url nonce>.<b64url ciphertext‖tag>`, AAD `usher/settings/v1:<KEY>` so a
 * ciphertext cannot be moved to another key. The key id lets a changed master key be detected
 * without attempting decryption.
 */
export class SettingsCipher {
  private readonly key: Buffer;
  readonly keyId: string;

  constructor(masterKey: string) {
    const ikm = Buffer.from(masterKey.trim(), 'utf8');
    this.key = Buffer.from(hkdfSync('sha256', ikm, Buffer.alloc(0), 'usher/settings/v1', 32));
    this.keyId = Buffer.from(
      hkdfSync('sha256', ikm, Buffer.alloc(0), 'usher/settings-kid/v1', 4),
    ).toString('hex');
  }

  encrypt(settingKey: string, plaintext: string): string {
    const nonce = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, nonce);
    cipher.setAAD(Buffer.from(`usher/settings/v1:${settingKey}`));
    const body = Buffer.concat([
      cipher.update(plaintext, 'utf8'),
      cipher.final(),
      cipher.getAuthTag(),
    ]);
    return `${VERSION}.${this.keyId}.${nonce.toString('base64url')}.${body.toString('base64url')}`;
  }

  decrypt(settingKey: string, envelope: string): DecryptResult {
    const parts = envelope.split('.');
    if (parts.length !== 4 || parts[0] !== VERSION) return { ok: false, reason: 'format' };
    const [, kid, nonceText, bodyText] = parts as [string, string, string, string];
    if (!/^[0-9a-f]{8}$/.test(kid)) return { ok: false, reason: 'format' };
    if (kid !== this.keyId) return { ok: false, reason: 'key_changed' };
    const nonce = Buffer.from(nonceText, 'base64url');
    const body = Buffer.from(bodyText, 'base64url');
    if (nonce.length !== 12 || body.length < 16) return { ok: false, reason: 'format' };
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, nonce);
      decipher.setAAD(Buffer.from(`usher/settings/v1:${settingKey}`));
      decipher.setAuthTag(body.subarray(body.length - 16));
      const plain = Buffer.concat([
        decipher.update(body.subarray(0, body.length - 16)),
        decipher.final(),
      ]);
      return { ok: true, value: plain.toString('utf8') };
    } catch {
      // GCM signals a failed authentication (tampered or moved ciphertext) only by throwing.
      return { ok: false, reason: 'corrupt' };
    }
  }
}

/** `••••` + the last 4 characters when the value has at least 12, else `••••` (§1). */
export function maskSecret(value: string): string {
  return value.length >= 12 ? `••••${value.slice(-4)}` : '••••';
}
