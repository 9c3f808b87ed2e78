/**
 * `trustgate secret-key reseal`: the last step of a secret-key rotation (docs/deploy.md, "The
 * secret key"). Every value sealed with a previous key is sealed again with the current one, so
 * that TRUSTGATE_PREVIOUS_SECRET_KEYS can be emptied; it says what it did, place by place.
 */
import type { ResealCount } from '../storage/reseal';
import { UsageError, type CommandDeps, type Out } from './command';

const line = (c: ResealCount) =>
  `${c.place}: ${c.resealed} resealed of ${c.checked}` + (c.unopened ? `, ${c.unopened} that no key here opens` : '');

/** Exit 0 when every value now opens with the current key alone; 1 when some open with no key this node holds. */
export async function runSecretKey(
  argv: string[],
  deps: Pick<CommandDeps, 'resealSecrets'>,
  out: Out,
): Promise<number> {
  const [, command, ...extra] = argv;
  if (command !== 'reseal' || extra.length > 0) throw new UsageError('secret-key takes one command: reseal');
  const counts = await deps.resealSecrets((c) => out(line(c)));
  const resealed = counts.reduce((n, c) => n + c.resealed, 0);
  const unopened = counts.reduce((n, c) => n + c.unopened, 0);
  if (unopened > 0) {
    out(
      `${unopened} values open with neither TRUSTGATE_SECRET_KEY nor TRUSTGATE_PREVIOUS_SECRET_KEYS: ` +
        'add the key that sealed them to TRUSTGATE_PREVIOUS_SECRET_KEYS and run this again before removing any',
    );
    return 1;
  }
  out(resealed > 0 ? `resealed ${resealed} values with the current key` : 'nothing left sealed with a previous key');
  out(
    'the database and this node’s media open with TRUSTGATE_SECRET_KEY alone; run this on every node that keeps ' +
      'media in its DATA_DIR, then remove TRUSTGATE_PREVIOUS_SECRET_KEYS',
  );
  return 0;
}
