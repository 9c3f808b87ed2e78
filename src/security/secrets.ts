/**
 * API keys are stored as SHA-256 hashes (they are 256-bit random values, so a fast hash is the
 * right tool: nothing to brute-force) and compared in constant time. Webhook secrets must be
 * recovered to sign webhooks, so they are encrypted at rest with AES-256-GCM under a key from
 * configuration.
 */
import { createCipheriv, createDecipheriv, createHash, createHmac, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Random } from '../clock';

const API_KEY_PREFIX = 'tg_';
/** A test project's keys (docs/test-mode.md): a test key in a production configuration is plain to see. */
export const TEST_API_KEY_PREFIX = 'tg_test_';

/** A new API key: `tg_` and 256 random bits, `tg_test_` for a test project. */
export function generateApiKey(random: Random, options: { test?: boolean } = {}): string {
  return (options.test ? TEST_API_KEY_PREFIX : API_KEY_PREFIX) + random.bytes(32).toString('base64url');
}

export function generateWebhookSecret(random: Random): string {
  return 'whsec_' + random.bytes(32).toString('base64url');
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** Constant-time comparison of two strings (false, not an exception, when lengths differ). */
export function constantTimeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  if (x.length !== y.length) {
    // Still spend the time of a comparison, so length is the only thing that can leak.
    timingSafeEqual(x, x);
    return false;
  }
  return timingSafeEqual(x, y);
}

/** The shown part of a key in listings: enough to tell keys apart, useless to an attacker. */
export function keyPrefix(key: string): string {
  const prefix = key.startsWith(TEST_API_KEY_PREFIX) ? TEST_API_KEY_PREFIX : API_KEY_PREFIX;
  return key.slice(0, prefix.length + 6);
}

export interface SecretBox {
  encrypt(plain: string): string;
  decrypt(sealed: string): string;
  /**
   * A keyed digest (HMAC-SHA256, hex) for values that must be matched but never stored, such
   * as document numbers: equal inputs give equal digests, and without the key a digest cannot
   * be reversed by trying every number.
   */
  digest(value: string): string;
}

/** AES-256-GCM; the sealed form is `v1.<iv>.<tag>.<ciphertext>`, each base64url. */
export function makeSecretBox(key: Buffer, random: Random): SecretBox {
  if (key.length !== 32) throw new Error('the secret key must be 32 bytes');
  // A subkey of its own, so that digests never share a key with encryption.
  const digestKey = createHmac('sha256', key).update('trustgate digest v1').digest();
  return {
    digest(value) {
      return createHmac('sha256', digestKey).update(value, 'utf8').digest('hex');
    },
    encrypt(plain) {
      const iv = random.bytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return ['v1', iv, cipher.getAuthTag(), body]
        .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
        .join('.');
    },
    decrypt(sealed) {
      const [version, iv, tag, body] = sealed.split('.');
      if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('not a sealed secret');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}

/**
 * The encryption key: from configuration when given, otherwise `secret.key` in the data
 * folder, created on first start (mode 0600). Lose that file and stored webhook secrets
 * cannot be decrypted: production sets TRUSTGATE_SECRET_KEY from its secret store.
 */
export function loadSecretKey(
  configured: string | undefined,
  dataDir: string,
  random: Random,
): { key: Buffer; created: boolean } {
  if (configured) return { key: Buffer.from(configured, 'base64'), created: false };
  const file = path.join(dataDir, 'secret.key');
  if (fs.existsSync(file)) {
    const key = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64');
    if (key.length !== 32) throw new Error(`${file} does not hold a 32-byte base64 key`);
    return { key, created: false };
  }
  fs.mkdirSync(dataDir, { recursive: true });
  const key = random.bytes(32);
  fs.writeFileSync(file, key.toString('base64') + '\n', { mode: 0o600, flag: 'wx' });
  return { key, created: true };
}
