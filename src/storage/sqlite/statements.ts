/**
 * The hot path's statements on SQLite: on the database's thread when it has one (a file:
 * thread.ts), through knex on this thread otherwise (`:memory:`). The statements the thread ran
 * are announced on the knex handle as knex announces its own (its `query` event, in the caller's
 * async context), so that whatever counts or inspects the statements sees them.
 */
import type { Knex } from 'knex';
import { knexStatements, type StatementRunner } from '../statements';
import { sqliteThreadOf } from './connection';
import type { ThreadStatement } from './thread';

export function sqliteStatements(db: Knex): StatementRunner {
  const local = knexStatements(db);
  // The statements come back only when something listens for them (the tests, the traces, the bench's count).
  const listened = () => db.listenerCount('query') > 0;
  const announce = (statements: readonly ThreadStatement[]) => {
    for (const s of statements) db.emit('query', { ...s, thread: 'sqlite' });
  };
  return {
    async rows(sql, bindings) {
      const thread = sqliteThreadOf(db);
      if (!thread) return local.rows(sql, bindings);
      const { rows, statements } = await thread.rows(sql, bindings, listened());
      announce(statements);
      return rows;
    },
    async transaction(run) {
      const thread = sqliteThreadOf(db);
      if (!thread) return local.transaction(run);
      const { written, statements } = await thread.transaction(run, listened());
      announce(statements);
      return written;
    },
  };
}
