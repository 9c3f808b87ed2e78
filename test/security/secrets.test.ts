import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { systemRandom } from '../../src/clock';
import {
  constantTimeEqual,
  generateApiKey,
  hashApiKey,
  loadSecretKey,
  makeSecretBox,
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
