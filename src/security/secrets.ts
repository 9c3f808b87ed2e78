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
  /** Seals with the current key: `v2.<key id>.<iv>.<tag>.<ciphertext>`. */
  encrypt(plain: string): string;
  /** Opens what the current key or a previous one sealed; throws when none of them did. */
  decrypt(sealed: string): string;
  /**
   * The same plain text sealed with the current key when `sealed` is not already (a previous
   * key's, or a `v1` value, which names no key); undefined when it is. What a key rotation's
   * reseal writes back.
   */
  reseal(sealed: string): string | undefined;
  /**
   * A keyed digest (HMAC-SHA256, hex) for values that must be matched but never stored, such
   * as document numbers: equal inputs give equal digests, and without the key a digest cannot
   * be reversed by trying every number.
   */
  digest(value: string): string;
}

export interface SecretBoxOptions {
  /** Keys that open what they sealed but seal nothing new (TRUSTGATE_PREVIOUS_SECRET_KEYS). */
  previousKeys?: readonly Buffer[];
  /**
   * The digest's key: the database's (installation_secrets `digest_key`), so that digests stay
   * the same across a key rotation. Unset: derived from the key, as before the database held it.
   */
  digestKey?: Buffer;
}

/** A key's name in what it sealed: not secret (a hash of a 256-bit random key), only which key it was. */
export function keyId(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 16);
}

/** The digest key a secret key has always given: a subkey, so that digests never share a key with encryption. */
export function derivedDigestKey(key: Buffer): Buffer {
  return createHmac('sha256', key).update('trustgate digest v1').digest();
}

function open(key: Buffer, iv: string, tag: string, body: string): string {
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}

/** The first key of `keys` that opens a `v1` value (which does not say which key sealed it). */
function openV1(keys: readonly Buffer[], iv: string, tag: string, body: string): string {
  for (const key of keys) {
    try {
      return open(key, iv, tag, body);
    } catch {
      // Not this key's (or damaged): the next one may open it.
    }
  }
  throw new Error('no secret key of this node opens this sealed value');
}

/**
 * AES-256-GCM. The sealed form is `v2.<key id>.<iv>.<tag>.<ciphertext>`, each base64url but the
 * key id (keyId), so that opening picks the key it names; `v1.<iv>.<tag>.<ciphertext>`, written
 * before keys could rotate, is tried with each key, the current one first.
 */
export function makeSecretBox(key: Buffer, random: Random, options: SecretBoxOptions = {}): SecretBox {
  const previous = options.previousKeys ?? [];
  for (const k of [key, ...previous]) if (k.length !== 32) throw new Error('the secret key must be 32 bytes');
  const currentId = keyId(key);
  const byId = new Map([...previous.map((k) => [keyId(k), k] as const), [currentId, key]]);
  const digestKey = options.digestKey ?? derivedDigestKey(key);
  const decrypt = (sealed: string) => {
    const parts = sealed.split('.');
    if (parts[0] === 'v1' && parts.length === 4) return openV1([key, ...previous], parts[1]!, parts[2]!, parts[3]!);
    if (parts[0] !== 'v2' || parts.length !== 5) throw new Error('not a sealed secret');
    const sealer = byId.get(parts[1]!);
    if (!sealer) throw new Error(`sealed with a secret key this node does not hold (key id ${parts[1]})`);
    return open(sealer, parts[2]!, parts[3]!, parts[4]!);
  };
  const encrypt = (plain: string) => {
    const iv = random.bytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v2', currentId, ...[iv, cipher.getAuthTag(), body].map((p) => p.toString('base64url'))].join('.');
  };
  return {
    digest(value) {
      return createHmac('sha256', digestKey).update(value, 'utf8').digest('hex');
    },
    encrypt,
    decrypt,
    reseal(sealed) {
      return sealed.startsWith(`v2.${currentId}.`) ? undefined : encrypt(decrypt(sealed));
    },
  };
}

/** Why a node with PostgreSQL and no key of its own refuses to start (it would make one no other node has). */
export const SECRET_KEY_REQUIRED =
  'TRUSTGATE_SECRET_KEY is required with DATABASE_URL: every node of one database must hold the same key ' +
  '(openssl rand -base64 32)';

/**
 * The encryption key: from configuration when given, otherwise `secret.key` in the data
 * folder. On SQLite (one machine) that file is created on first start (mode 0600); with
 * `shared` (PostgreSQL, which several nodes may share) it never is: a key made by one node is
 * one no other node holds, so without the file the node refuses to start. Lose the key and
 * what it sealed cannot be decrypted: production sets TRUSTGATE_SECRET_KEY from its secret store.
 */
export function loadSecretKey(
  configured: string | undefined,
  dataDir: string,
  random: Random,
  options: { shared?: boolean } = {},
): { key: Buffer; created: boolean } {
  if (configured) return { key: Buffer.from(configured, 'base64'), created: false };
  const file = path.join(dataDir, 'secret.key');
  if (fs.existsSync(file)) {
    const key = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64');
    if (key.length !== 32) throw new Error(`${file} does not hold a 32-byte base64 key`);
    return { key, created: false };
  }
  if (options.shared) throw new Error(SECRET_KEY_REQUIRED);
  // DATA_DIR holds the database and the images: private to the service's user when made here.
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const key = random.bytes(32);
  fs.writeFileSync(file, key.toString('base64') + '\n', { mode: 0o600, flag: 'wx' });
  return { key, created: true };
}
