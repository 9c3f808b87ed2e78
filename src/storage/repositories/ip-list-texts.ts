/**
 * The IP lists' texts in the database (table ip_list_texts, migration 0040): the store every
 * node of one PostgreSQL database reads (geo/ip-lists/store.ts). A write lands only over the
 * version it read, so two edits at once both land (the second reads again and retries); the
 * version moves with every write, which is what the nodes poll.
 */
import type { Knex } from 'knex';
import type { Clock } from '../../clock';
import type { IpListName, IpListTexts, StoredListSource } from '../../geo/ip-lists';
import { listKey } from '../../geo/ip-lists';

const TABLE = 'ip_list_texts';

export function makeIpListTexts(
  db: Knex,
  clock: Clock,
): IpListTexts & {
  importOnce(texts: readonly { list: IpListName; source: StoredListSource; text: string }[]): Promise<boolean>;
} {
  return {
    kind: 'database',
    where: (list, source) => `database table ${TABLE} (${listKey(list, source)})`,
    async read(list, source) {
      const row = (await db(TABLE).where({ list, source }).first('text', 'version')) as
        { text: string; version: number } | undefined;
      return row ? { text: row.text, version: String(row.version) } : undefined;
    },
    async versions() {
      const rows = (await db(TABLE).select('list', 'source', 'version')) as {
        list: IpListName;
        source: StoredListSource;
        version: number;
      }[];
      return new Map(rows.map((r) => [listKey(r.list, r.source), String(r.version)]));
    },
    async write(list, source, text, expected) {
      const at = clock.now().getTime();
      if (expected === undefined) {
        const inserted = await db(TABLE)
          .insert({ list, source, text, version: 1, updated_at: at })
          .onConflict(['list', 'source'])
          .ignore()
          .returning('list');
        return inserted.length === 1;
      }
      const changed = await db(TABLE)
        .where({ list, source, version: Number(expected) })
        .update({ text, version: Number(expected) + 1, updated_at: at });
      return changed === 1;
    },

    /**
     * Stores `texts` when the table holds none yet (an installation's files, the first time it
     * runs on the database); false when it held some. Nodes starting at once take turns (a lock
     * on the table that conflicts with itself, not with readers), so one of them imports.
     */
    async importOnce(texts) {
      if (texts.length === 0) return false; // nothing to import: no lock taken
      return db.transaction(async (trx) => {
        if (db.client.config.client === 'pg') await trx.raw(`LOCK TABLE ${TABLE} IN SHARE ROW EXCLUSIVE MODE`);
        const [{ n }] = (await trx(TABLE).count({ n: '*' })) as [{ n: number | string }];
        if (Number(n) > 0) return false;
        const at = clock.now().getTime();
        await trx(TABLE).insert(texts.map((t) => ({ ...t, version: 1, updated_at: at })));
        return true;
      });
    },
  };
}
