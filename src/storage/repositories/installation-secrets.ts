/**
 * The installation's own keys, sealed (table installation_secrets, migration 0038): one row a
 * name, the same for every node of the database. Sealing and opening are the caller's; this
 * keeps the sealed text, created once whichever nodes race to create it.
 */
import type { Knex } from 'knex';

export function makeInstallationSecrets(db: Knex) {
  const read = async (name: string, trx: Knex = db): Promise<string | undefined> =>
    (await trx('installation_secrets').where({ name }).first('sealed'))?.sealed as string | undefined;
  return {
    read,

    /** Stores `sealed` under `name` unless a row is there already; returns the row's, ours or another node's. */
    async create(name: string, sealed: string, at: Date, trx: Knex = db): Promise<string> {
      await trx('installation_secrets').insert({ name, sealed, updated_at: at.getTime() }).onConflict('name').ignore();
      return (await read(name, trx))!;
    },

    /** Replaces the sealed text `before` by `after` (sealed again, say under a new key); false when another node changed it first. */
    async replace(name: string, before: string, after: string, at: Date, trx: Knex = db): Promise<boolean> {
      const changed = await trx('installation_secrets')
        .where({ name, sealed: before })
        .update({ sealed: after, updated_at: at.getTime() });
      return changed === 1;
    },
  };
}

export type InstallationSecrets = ReturnType<typeof makeInstallationSecrets>;
