/**
 * Operators' passwords: argon2id (@node-rs/argon2, prebuilt binaries from the npm registry),
 * at the parameters OWASP recommends for it (19 MiB, 2 passes, 1 lane); the stored form is the
 * PHC string (`$argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>`), which carries its own
 * parameters, so they can be raised later without breaking stored hashes. The comparison
 * inside `verify` is constant-time. Passwords are never logged, stored or returned.
 */
import { hash, verify, type Algorithm, type Options } from '@node-rs/argon2';

/** Algorithm.Argon2id (an ambient const enum, which isolated modules cannot read by name). */
const ARGON2ID = 2 as Algorithm;

export const PASSWORD_HASH_OPTIONS: Options = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

/** The shortest password `trustgate user add` accepts. */
export const MIN_PASSWORD_LENGTH = 12;

export function hashPassword(password: string): Promise<string> {
  return hash(password, PASSWORD_HASH_OPTIONS);
}

/** Whether the password matches the stored hash; false (never an exception) for a malformed hash. */
export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

let dummy: Promise<string> | undefined;

/**
 * Spends the time of one verification against a hash of nothing: a login for an email that
 * has no operator takes as long as one with a wrong password, so answers cannot tell which
 * emails exist.
 */
export async function verifyNothing(password: string): Promise<false> {
  dummy ??= hashPassword('no operator has this password: it only spends the time of a check');
  await verifyPassword(await dummy, password);
  return false;
}
