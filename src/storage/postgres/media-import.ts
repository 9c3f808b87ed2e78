/**
 * Before migration 0039 a PostgreSQL installation kept each node's images on that node's disk
 * (DATA_DIR/media, one sealed file an image). Each node moves its own into the shared table when
 * it starts (main.ts, before it serves): the sealed text is copied as it is (the same secret key
 * seals both), the file removed once its row is committed. A file no capture row names is an
 * image already erased (its rows went first, then a crash or a node stopped before the file did):
 * it is removed, not imported. Running again finds nothing, and a row already there is kept.
 */
import fs from 'node:fs/promises';
import type { Knex } from 'knex';
import { localMediaFiles, localSigningKeyFile } from '../media';

/** Files read per statement of the capture rows. */
const BATCH = 100;

export interface MediaImport {
  /** Images now in the table. */
  imported: number;
  /** Files of erased images, removed. */
  removed: number;
}

/** Moves the images under `dir` into the `media` table; the node's own URL-signing key file goes too. */
export async function importLocalMedia(db: Knex, dir: string): Promise<MediaImport> {
  const files = await localMediaFiles(dir);
  const counts: MediaImport = { imported: 0, removed: 0 };
  for (let i = 0; i < files.length; i += BATCH) {
    const batch = files.slice(i, i + BATCH);
    const captured = new Map<string, number>(
      (
        (await db('verification_captures')
          .whereIn(
            'media_id',
            batch.map((f) => f.id),
          )
          .select('media_id', 'created_at')) as { media_id: string; created_at: string | number }[]
      ).map((r) => [r.media_id, Number(r.created_at)]),
    );
    for (const { id, file } of batch) {
      const createdAt = captured.get(id);
      if (createdAt !== undefined) {
        const sealed = await fs.readFile(file, 'utf8');
        await db('media').insert({ id, sealed, created_at: createdAt }).onConflict('id').ignore();
        counts.imported++;
      } else counts.removed++;
      await fs.rm(file, { force: true });
    }
  }
  // URLs signed with the node's own key stopped opening when the installation's key took over.
  await fs.rm(localSigningKeyFile(dir), { force: true });
  return counts;
}
