/**
 * The PostgreSQL adapter's connections: knex's pool for every statement but the hot path's, and
 * the hot path's own pipelined connections (pipeline.ts), made on first use. The pg driver
 * answers BIGINT (int8) and COUNT(*) as strings; every such value here is a millisecond timestamp
 * or a count, far inside Number's safe range, so they are read as numbers.
 */
import knex, { type Knex } from 'knex';
import pg from 'pg';
import { DB_DEFAULTS } from '../../config';
import { makeAccountLocks, type AccountLocks } from './account-locks';
import { makePgPipeline, type PgPipeline } from './pipeline';

pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

/** The hot path's connections of each PostgreSQL database (made on first use). */
const pgHotPipelines = new WeakMap<Knex, () => PgPipeline>();
/** The account locks' connections of each PostgreSQL database (account-locks.ts; made on first use). */
const pgAccountLocks = new WeakMap<Knex, () => AccountLocks>();

/**
 * The connections the hot path's statements run on (statements.ts `pgRows`, `pgTransaction`),
 * when `db` is PostgreSQL: shared, pipelined connections of their own (pipeline.ts), whose
 * prepared statements always take the generic plan (`plan_cache_mode = force_generic_plan`).
 * PostgreSQL would otherwise plan a named statement afresh at each of its first five runs on each
 * connection, and the links' and accounts' reads have a text for each number of values they look
 * up: a new process's connections would plan them over and over (docs/pipeline.md, *Generic plans
 * on the hot path*). Every one of those statements is a bounded index lookup whatever its values (the
 * query-plan test), so one plan serves all; the rest of the service keeps knex's pool and
 * PostgreSQL's own choice, where a skewed value (an email domain) may want a plan of its own.
 */
export function pgHotPipelineOf(db: Knex): PgPipeline | undefined {
  return pgHotPipelines.get(db)?.();
}

/** The account locks of `db` when it is PostgreSQL. */
export function pgAccountLocksOf(db: Knex): AccountLocks | undefined {
  return pgAccountLocks.get(db)?.();
}

/** The PostgreSQL adapter's settings. */
export interface PostgresOptions {
  /** Connections of knex's pool (every statement but the hot path's). */
  poolSize?: number;
  /** Connections of the hot path (pipeline.ts), each shared by every request. */
  hotConnections?: number;
  /** Told when a connection of the hot path fails (it is dropped; the next statement opens another). */
  onConnectionError?: (message: string) => void;
}

/** A PostgreSQL database at `options.databaseUrl`. */
export function openPostgres(options: PostgresOptions & { databaseUrl: string }): Knex {
  const max = options.poolSize ?? DB_DEFAULTS.poolSize;
  const db = knex({ client: 'pg', connection: options.databaseUrl, pool: { min: 0, max } });
  let hot: PgPipeline | undefined;
  pgHotPipelines.set(
    db,
    () =>
      (hot ??= makePgPipeline({
        connectionString: options.databaseUrl,
        size: options.hotConnections ?? DB_DEFAULTS.hotConnections,
        onError: options.onConnectionError,
      })),
  );
  let locks: AccountLocks | undefined;
  pgAccountLocks.set(db, () => (locks ??= makeAccountLocks(options.databaseUrl)));
  const client = db.client as { destroy(callback?: unknown): Promise<void> };
  const destroy = client.destroy.bind(client);
  client.destroy = async (callback?: unknown) => {
    pgHotPipelines.delete(db);
    pgAccountLocks.delete(db);
    // Ended once, however many times knex is destroyed (a pool refuses a second end).
    const [pipeline, accountLocks] = [hot, locks];
    hot = locks = undefined;
    await pipeline?.end();
    await accountLocks?.end();
    return destroy(callback);
  };
  return db;
}
