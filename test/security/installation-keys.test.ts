import { randomBytes } from 'node:crypto';
import { systemRandom } from '../../src/clock';
import { firstDigestKey, keyMismatch, openStoredKey } from '../../src/security/installation-keys';
import { derivedDigestKey, makeSecretBox } from '../../src/security/secrets';

const [oldKey, newKey, otherKey] = [randomBytes(32), randomBytes(32), randomBytes(32)];
const stored = randomBytes(32);

describe('the database’s stored keys, opened by a node', () => {
  test('when the current key sealed it, then it opens and stays as it is', () => {
    const box = makeSecretBox(newKey, systemRandom);
    const opened = openStoredKey(box.encrypt(stored.toString('base64')), box, 'TRUSTGATE_SECRET_KEY');
    expect(opened).toEqual({ key: stored });
  });

  test('when a previous key sealed it, then it opens and comes back sealed with the current key alone', () => {
    const sealed = makeSecretBox(oldKey, systemRandom).encrypt(stored.toString('base64'));
    const opened = openStoredKey(sealed, makeSecretBox(newKey, systemRandom, { previousKeys: [oldKey] }), 'X');
    expect(opened.key).toEqual(stored);
    expect(makeSecretBox(newKey, systemRandom).decrypt(opened.resealed!)).toBe(stored.toString('base64'));
  });

  test('when no key of the node opens it, then it refuses with the source of its key and what to do', () => {
    const sealed = makeSecretBox(otherKey, systemRandom).encrypt(stored.toString('base64'));
    const box = makeSecretBox(newKey, systemRandom, { previousKeys: [oldKey] });
    expect(() => openStoredKey(sealed, box, 'TRUSTGATE_SECRET_KEY')).toThrow(keyMismatch('TRUSTGATE_SECRET_KEY'));
    expect(keyMismatch('TRUSTGATE_SECRET_KEY')).toBe(
      "TRUSTGATE_SECRET_KEY cannot open this database's secrets: every node of one database must use the same key; " +
        'during a rotation put the old key in TRUSTGATE_PREVIOUS_SECRET_KEYS',
    );
  });

  test('when a database gets its first digest key, then it is the one its digests were made with so far', () => {
    expect(firstDigestKey(newKey, [])).toEqual(derivedDigestKey(newKey));
    // Upgraded in the middle of a rotation: the key rotated away from made them.
    expect(firstDigestKey(newKey, [oldKey])).toEqual(derivedDigestKey(oldKey));
  });
});
