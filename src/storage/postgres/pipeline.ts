/**
 * The hot path's connections to PostgreSQL: `DATABASE_HOT_CONNECTIONS` node-postgres clients (one
 * by default) in pipeline mode (`pipeline: true`: a client writes each statement as it is given
 * one, without waiting for the answer to the one before), shared by every request instead of lent
 * to one at a time.
 *
 * On a pool, each of a request's statements would take a connection of its own and wait on it
 * alone, so under load every statement would be a socket write that wakes an idle server process
 * and a read of its one answer, and the request thread would spend much of its time in socket
 * writes. Shared, a
 * connection carries the statements of several requests at once: the server process finds the
 * next statement already waiting instead of being woken for it, and one read brings back several
 * answers (docs/pipeline.md, *PostgreSQL's connections, shared and pipelined*). The statements
 * sent on a connection in one turn leave in one socket write (`batchWrites`).
 *
 * Sharing is safe for what the hot path sends: each statement is its own transaction (a read), or
 * one message that is a whole transaction (statements.ts `pgTransaction`), and PostgreSQL answers
 * a connection's statements in the order it was sent them, each with its own result or error. A
 * statement that needs a transaction across messages (`BEGIN` … `COMMIT`) must never come here:
 * another request's statements would land inside it.
 */
import pg from 'pg';

export interface PgPipelineOptions {
  connectionString: string;
  /** At most this many connections, each shared by every request. */
  size: number;
  /** Told when a connection fails (a restart, an administrator's terminate): it is dropped, and the next statement opens another. */
  onError?: (message: string) => void;
}

/** One of the shared connections, with how many statements are on it now. */
export interface PipelinedConnection {
  readonly client: pg.Client;
  inFlight: number;
}

/** node-postgres's client lets its socket stop keeping the process alive (`unref`) and start again; @types/pg does not declare it. */
type Unreffable = pg.Client & { ref(): void; unref(): void };

export interface PgPipeline {
  /**
   * The connection the next statement goes on, counted on it until `done`: an idle one when there
   * is one, else a new one while fewer than `size` are open, else the one with the fewest
   * statements on it.
   */
  acquire(): Promise<PipelinedConnection>;
  /** The statement `acquire` was for has its answer (a connection that failed is dropped when its client reports it). */
  done(connection: PipelinedConnection): void;
  /** The open connections (and those opening). */
  readonly connections: readonly PipelinedConnection[];
  readonly ended: boolean;
  /** Closes every connection once the statements on it have their answers. */
  end(): Promise<void>;
}

/** Settings of every hot-path connection: generic plans from the first run (db.ts `pgHotPipelineOf`). */
const HOT_OPTIONS = { options: '-c plan_cache_mode=force_generic_plan', application_name: 'trustgate hot path' };

export function makePgPipeline(options: PgPipelineOptions): PgPipeline {
  const open: (PipelinedConnection & { client: Unreffable; ready: Promise<void>; corked: boolean })[] = [];
  let ended = false;

  /**
   * Holds the connection's writes until the current turn's microtasks have run, so that the
   * statements every request sends on it in that turn leave in one socket write, not one each
   * (node-postgres corks only around a single statement's messages).
   */
  const batchWrites = (c: (typeof open)[number]) => {
    if (c.corked) return;
    const { stream } = c.client.connection;
    c.corked = true;
    stream.cork();
    process.nextTick(() => {
      c.corked = false;
      stream.uncork();
    });
  };

  const drop = (c: PipelinedConnection, why?: Error) => {
    const at = open.findIndex((o) => o === c);
    if (at < 0) return;
    open.splice(at, 1);
    if (why) options.onError?.(why.message);
    // Its statements in flight have failed with the socket (node-postgres answers each an error).
    c.client.end().catch(() => {});
  };

  const connect = () => {
    const client = new pg.Client({
      connectionString: options.connectionString,
      pipeline: true,
      ...HOT_OPTIONS,
    }) as Unreffable;
    const c = { client, inFlight: 0, ready: Promise.resolve(), corked: false };
    // Unheard, a connection's 'error' (one that fails while idle) would end the process.
    client.on('error', (err) => drop(c, err));
    client.on('end', () => drop(c));
    c.ready = client.connect().then(
      () => {
        // An idle connection does not keep the process alive (a command that reads and exits).
        if (c.inFlight === 0) client.unref();
      },
      (err: Error) => {
        drop(c);
        throw err;
      },
    );
    open.push(c);
    return c;
  };

  return {
    async acquire() {
      if (ended) throw new Error('the database is closed');
      let c = open.find((o) => o.inFlight === 0);
      if (!c && open.length < options.size) c = connect();
      c ??= open.reduce((a, b) => (b.inFlight < a.inFlight ? b : a));
      if (c.inFlight++ === 0) c.client.ref();
      try {
        await c.ready;
      } catch (err) {
        c.inFlight--;
        throw err;
      }
      batchWrites(c);
      return c;
    },
    done(c) {
      if (--c.inFlight === 0) (c.client as Unreffable).unref();
    },
    get connections() {
      return open;
    },
    get ended() {
      return ended;
    },
    async end() {
      ended = true;
      const all = open.splice(0);
      await Promise.all(all.map((c) => c.ready.then(() => c.client.end()).catch(() => {})));
    },
  };
}
