/**
 * A change to a project's keys, settings or rules, announced to every process on the database:
 * on PostgreSQL a NOTIFY on PROJECT_CHANNEL with the project's id, sent in the change's own
 * transaction, which PostgreSQL delivers to every LISTEN when (and only if) it commits
 * (composition/listener.ts drops the project from each process's key cache). On SQLite nothing:
 * the processes of one machine share no channel, and a change made elsewhere shows in a
 * process after its key cache's TTL.
 */
import type { Knex } from 'knex';

/** The PostgreSQL channel on which changed projects are announced, the payload the project's id. */
export const PROJECT_CHANNEL = 'trustgate_projects';

export async function announceChange(trx: Knex, projectId: string): Promise<void> {
  if (trx.client.config.client !== 'pg') return;
  await trx.raw('SELECT pg_notify(?, ?)', [PROJECT_CHANNEL, projectId]);
}
