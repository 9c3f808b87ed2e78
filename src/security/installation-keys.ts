/**
 * The keys an installation keeps in its database (installation_secrets), sealed with the secret
 * key, so that every node of one database uses the same ones: the keyed digest's key for now.
 * A row every node must open is also the check that the nodes hold the same secret key: one
 * whose key cannot open it refuses to start, instead of starting and failing on every value
 * the others sealed.
 */
import { derivedDigestKey, type SecretBox } from './secrets';

/** The row of the keyed digest's key (SecretBox.digest). */
export const DIGEST_KEY = 'digest_key';

/** Why a node refuses to start: `source` names where its key came from (the setting, or the data folder's file). */
export function keyMismatch(source: string): string {
  return (
    `${source} cannot open this database's secrets: every node of one database must use the same key; ` +
    'during a rotation put the old key in TRUSTGATE_PREVIOUS_SECRET_KEYS'
  );
}

/**
 * The digest key a database is given when it has none yet: the one its digests were made with
 * so far, derived from the secret key. Before the database kept it there was no previous-keys
 * setting, so a node that names previous keys at that point is rotating away from the first of
 * them, which made those digests.
 */
export function firstDigestKey(current: Buffer, previous: readonly Buffer[]): Buffer {
  return derivedDigestKey(previous[0] ?? current);
}

/**
 * A stored key opened with the node's keys, and sealed again with its current key when a
 * previous key (or a `v1` value) sealed it; throws `keyMismatch(source)` when no key of the
 * node opens it.
 */
export function openStoredKey(sealed: string, box: SecretBox, source: string): { key: Buffer; resealed?: string } {
  let key: Buffer;
  let resealed: string | undefined;
  try {
    key = Buffer.from(box.decrypt(sealed), 'base64');
    resealed = box.reseal(sealed);
  } catch {
    throw new Error(keyMismatch(source));
  }
  if (key.length !== 32)
    throw new Error("a key in this database's installation_secrets is not 32 bytes: it is damaged");
  return resealed === undefined ? { key } : { key, resealed };
}

/** What settleStoredKey needs of the installation_secrets repository. */
export interface StoredKeys {
  read(name: string): Promise<string | undefined>;
  create(name: string, sealed: string, at: Date): Promise<string>;
  replace(name: string, before: string, after: string, at: Date): Promise<boolean>;
}

/**
 * The stored key `name`: stored first (`first`, sealed with the current key) when the database
 * has none, whichever nodes race to; opened; sealed again with the current key when a previous
 * one sealed it (conditioned on the text read: another node may have done it first, with the
 * same key inside). Refuses, as openStoredKey does, when the node's keys cannot open it.
 */
export async function settleStoredKey(
  stored: StoredKeys,
  name: string,
  box: SecretBox,
  first: Buffer,
  options: { source: string; now: Date },
): Promise<Buffer> {
  const sealed =
    (await stored.read(name)) ?? (await stored.create(name, box.encrypt(first.toString('base64')), options.now));
  const opened = openStoredKey(sealed, box, options.source);
  if (opened.resealed !== undefined) await stored.replace(name, sealed, opened.resealed, options.now);
  return opened.key;
}
