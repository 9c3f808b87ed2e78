/**
 * The media store of a PostgreSQL installation: one row an image in `media` (migration 0039),
 * sealed as the local files are (storage/media.ts `sealMedia`), and one URL-signing key in
 * `installation_secrets`, so that whichever node a capture, a completion, a signed URL, an
 * erasure or a retention pass reaches, it finds the same images under the same key, and
 * `pg_dump` backs them up with the rest. It is plain knex: the port's test runs it on SQLite
 * too, but the composition chooses it on PostgreSQL only (on SQLite, one machine, files do).
 */
import type { Knex } from 'knex';
import type { Clock, Random } from '../../clock';
import type { SecretBox } from '../../security/secrets';
import {
  MEDIA_ID,
  memoisedKey,
  openMedia,
  openSigningKey,
  sealMedia,
  sealNewSigningKey,
  type MediaStore,
} from '../media';
import type { InstallationSecrets } from '../repositories/installation-secrets';

/** The name of the URL-signing key's row in installation_secrets. */
export const MEDIA_URL_SIGNING_KEY = 'media_url_signing_key';

export interface DatabaseMediaDeps {
  db: Knex;
  secretBox: SecretBox;
  random: Random;
  clock: Clock;
  secrets: Pick<InstallationSecrets, 'read' | 'create'>;
}

export function makeDatabaseMediaStore({ db, secretBox, random, clock, secrets }: DatabaseMediaDeps): MediaStore {
  /** The installation's key; the first node that signs creates it, the others read the row it wrote. */
  async function loadKey(): Promise<Buffer> {
    const sealed =
      (await secrets.read(MEDIA_URL_SIGNING_KEY)) ??
      (await secrets.create(MEDIA_URL_SIGNING_KEY, sealNewSigningKey(secretBox, random), clock.now()));
    return openSigningKey(secretBox, sealed);
  }
  return {
    async put(bytes, contentType) {
      const id = random.uuid();
      await db('media').insert({
        id,
        sealed: sealMedia(secretBox, bytes, contentType),
        created_at: clock.now().getTime(),
      });
      return id;
    },
    async get(id) {
      if (!MEDIA_ID.test(id)) return undefined;
      const row = (await db('media').where({ id }).first('sealed')) as { sealed: string } | undefined;
      return row && openMedia(secretBox, row.sealed);
    },
    async delete(id) {
      if (!MEDIA_ID.test(id)) return;
      await db('media').where({ id }).delete();
    },
    signingKey: memoisedKey(loadKey),
  };
}
