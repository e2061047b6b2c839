import crypto from 'node:crypto';

/**
 * Encrypts secrets at rest (API keys, client secrets, refresh tokens, proxy passwords) with
 * AES-256-GCM under a key derived from APP_SECRET. Stored form: `v1:iv:tag:ciphertext`.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(appSecret: string) {
    this.key = Buffer.from(crypto.hkdfSync('sha256', appSecret, 'story-video-console', 'secrets-at-rest-v1', 32));
  }

  seal(plain: string): string {
    const iv = crypto.randomBytes(12);
    const cipher = crypto.createCipheriv('aes-256-gcm', this.key, iv);
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), data.toString('base64url')].join(':');
  }

  open(sealed: string): string {
    const [version, iv, tag, data] = sealed.split(':');
    if (version !== 'v1' || !iv || !tag || data === undefined) throw new Error('Unknown secret format');
    const decipher = crypto.createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
  }

  /**
   * The secret in clear, or undefined when it cannot be read (sealed under another APP_SECRET, or
   * damaged): one unreadable record must read "enter it again", never fail a whole list.
   */
  tryOpen(sealed: string | null): string | undefined {
    if (sealed === null) return undefined;
    try {
      return this.open(sealed);
    } catch {
      return undefined;
    }
  }
}

/** The masked form answered instead of a secret: its last four characters at most. */
export function maskSecret(plain: string): string {
  if (plain.length <= 8) return '•'.repeat(Math.max(plain.length, 4));
  return `${'•'.repeat(8)}${plain.slice(-4)}`;
}
