import { createCipheriv, createHmac, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { systemRandom } from '../../src/clock';
import {
  constantTimeEqual,
  generateApiKey,
  hashApiKey,
  keyId,
  loadSecretKey,
  makeSecretBox,
  SECRET_KEY_REQUIRED,
} from '../../src/security/secrets';
import { defined } from '../helpers/defined';

describe('secrets', () => {
  it('when a secret is sealed, then it opens with the same key only and is never stored in the clear', () => {
    const box = makeSecretBox(randomBytes(32), systemRandom);
    const sealed = box.encrypt('whsec_abc');
    expect(sealed).not.toContain('whsec_abc');
    expect(box.decrypt(sealed)).toBe('whsec_abc');
    expect(box.encrypt('whsec_abc')).not.toBe(sealed); // a fresh IV each time
    expect(() => makeSecretBox(randomBytes(32), systemRandom).decrypt(sealed)).toThrow();
    const [v, iv, tag, body] = sealed.split('.');
    const flipped = Buffer.from(defined(body), 'base64url');
    flipped[0] = defined(flipped[0]) ^ 1;
    expect(() => box.decrypt([v, iv, tag, flipped.toString('base64url')].join('.'))).toThrow();
  });

  it('when API keys are made, then they are long, distinct, and hashed to 64 hex characters', () => {
    const a = generateApiKey(systemRandom);
    const b = generateApiKey(systemRandom);
    expect(a).not.toBe(b);
    expect(a.length).toBeGreaterThanOrEqual(40);
    expect(hashApiKey(a)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('when strings are compared, then equal ones match and others do not, whatever their lengths', () => {
    expect(constantTimeEqual('abc', 'abc')).toBe(true);
    expect(constantTimeEqual('abc', 'abd')).toBe(false);
    expect(constantTimeEqual('abc', 'abcd')).toBe(false);
  });

  it('when no key is configured, then one is created once in the data folder and reused', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tg-secret-'));
    const first = loadSecretKey(undefined, dir, systemRandom);
    const second = loadSecretKey(undefined, dir, systemRandom);
    expect(first.created).toBe(true);
    expect(second.created).toBe(false);
    expect(second.key.equals(first.key)).toBe(true);
    expect(fs.statSync(path.join(dir, 'secret.key')).mode & 0o777).toBe(0o600);
    const configured = randomBytes(32).toString('base64');
    expect(loadSecretKey(configured, dir, systemRandom).key.toString('base64')).toBe(configured);
    fs.rmSync(dir, { recursive: true });
  });
});

/** A value in the form written before keys could rotate: `v1.<iv>.<tag>.<ciphertext>`, naming no key. */
function sealV1(key: Buffer, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), body]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join('.');
}

describe('the secret box across a key rotation', () => {
  const [oldKey, newKey, otherKey] = [randomBytes(32), randomBytes(32), randomBytes(32)];

  it('when a value is sealed, then it names its key and opens with it', () => {
    const box = makeSecretBox(newKey, systemRandom, { previousKeys: [oldKey] });
    const sealed = box.encrypt('whsec_abc');
    expect(sealed.split('.')).toEqual([
      'v2',
      keyId(newKey),
      expect.any(String),
      expect.any(String),
      expect.any(String),
    ]);
    expect(keyId(newKey)).toMatch(/^[0-9a-f]{16}$/);
    expect(box.decrypt(sealed)).toBe('whsec_abc');
    expect(makeSecretBox(newKey, systemRandom).decrypt(sealed)).toBe('whsec_abc');
    expect(() => makeSecretBox(oldKey, systemRandom).decrypt(sealed)).toThrow(`key id ${keyId(newKey)}`);
  });

  it('when a previous key sealed a value, then it still opens, and resealing moves it to the current key', () => {
    const sealed = makeSecretBox(oldKey, systemRandom).encrypt('body');
    const box = makeSecretBox(newKey, systemRandom, { previousKeys: [otherKey, oldKey] });
    expect(box.decrypt(sealed)).toBe('body');
    const moved = box.reseal(sealed)!;
    expect(moved.startsWith(`v2.${keyId(newKey)}.`)).toBe(true);
    expect(makeSecretBox(newKey, systemRandom).decrypt(moved)).toBe('body');
    expect(box.reseal(moved)).toBeUndefined();
  });

  it('when a value is in the v1 form, then each key is tried, the current first, and resealing names the key', () => {
    const box = makeSecretBox(newKey, systemRandom, { previousKeys: [oldKey] });
    expect(box.decrypt(sealV1(newKey, 'current'))).toBe('current');
    expect(box.decrypt(sealV1(oldKey, 'previous'))).toBe('previous');
    expect(makeSecretBox(newKey, systemRandom).decrypt(box.reseal(sealV1(oldKey, 'previous'))!)).toBe('previous');
    expect(box.reseal(sealV1(newKey, 'current'))).toMatch(new RegExp(`^v2\\.${keyId(newKey)}\\.`));
    expect(() => box.decrypt(sealV1(otherKey, 'foreign'))).toThrow('no secret key of this node opens');
  });

  it('when no key of the box sealed a value, then it is not opened nor resealed', () => {
    const sealed = makeSecretBox(otherKey, systemRandom).encrypt('x');
    const box = makeSecretBox(newKey, systemRandom, { previousKeys: [oldKey] });
    expect(() => box.decrypt(sealed)).toThrow(`key id ${keyId(otherKey)}`);
    expect(() => box.reseal(sealed)).toThrow();
    expect(() => box.decrypt('v3.a.b.c.d')).toThrow('not a sealed secret');
  });

  it('when the digest key is given, then digests depend on it alone, not on the secret key', () => {
    const digestKey = randomBytes(32);
    const before = makeSecretBox(oldKey, systemRandom, { digestKey }).digest('number|US|CA|123');
    expect(makeSecretBox(newKey, systemRandom, { digestKey }).digest('number|US|CA|123')).toBe(before);
    expect(before).toBe(createHmac('sha256', digestKey).update('number|US|CA|123').digest('hex'));
    // Without one, the key derived from the secret key, as digests were always made.
    const derived = createHmac('sha256', oldKey).update('trustgate digest v1').digest();
    expect(makeSecretBox(oldKey, systemRandom).digest('n')).toBe(
      createHmac('sha256', derived).update('n').digest('hex'),
    );
  });
});

describe('the secret key with a database several nodes share', () => {
  it('when neither TRUSTGATE_SECRET_KEY nor DATA_DIR/secret.key is there, then none is made and the error names the setting', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tg-secret-'));
    expect(() => loadSecretKey(undefined, dir, systemRandom, { shared: true })).toThrow(SECRET_KEY_REQUIRED);
    expect(SECRET_KEY_REQUIRED).toMatch(/^TRUSTGATE_SECRET_KEY is required with DATABASE_URL/);
    expect(fs.existsSync(path.join(dir, 'secret.key'))).toBe(false);
    // An installation that has run on one node with its generated key keeps it.
    const made = loadSecretKey(undefined, dir, systemRandom);
    expect(loadSecretKey(undefined, dir, systemRandom, { shared: true }).key.equals(made.key)).toBe(true);
    fs.rmSync(dir, { recursive: true });
  });
});
