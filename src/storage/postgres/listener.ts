/**
 * PostgreSQL's LISTEN: the process's one connection of its own (a pooled one is shared between
 * queries, and a LISTEN belongs to the session that ran it) on which every committed NOTIFY on
 * one of the channels it is given reaches that channel's handler, with its payload. The users
 * name their channels and handlers (composition/listener.ts): queued webhooks wake the
 * dispatcher, a changed project leaves the key cache. PostgreSQL delivers a notification only
 * while the session listens, so `onConnect` runs on every (re)connection, once every channel
 * is listened to: each user then catches up on what it may have missed. A lost connection is
 * logged and made again after a pause that doubles up to `maxRetryMs`; the users' own fallbacks
 * (the dispatcher's poll, the key cache's TTL) cover the gap.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import type { Logger } from '../../logger';

/** The listener's application_name, as pg_stat_activity shows it. */
export const LISTENER_NAME = 'trustgate listener';

export interface ListenerDeps {
  /** The PostgreSQL database's URL (DATABASE_URL). */
  connectionString: string;
  logger: Logger;
  /** Each channel's handler, called on every notification on it with its payload ('' when none). */
  channels: Readonly<Record<string, (payload: string) => void>>;
  /** Called on every (re)connection, once every channel is listened to. */
  onConnect(): void;
  firstRetryMs?: number;
  maxRetryMs?: number;
}

/**
 * Resolves when the connection fails or ends, or when `signal` aborts (then it closes the
 * connection, which also ends a connect or a LISTEN in progress); with the failure.
 */
function lost(client: pg.Client, signal: AbortSignal): { until: Promise<string | undefined>; release(): void } {
  let release = () => {};
  const until = new Promise<string | undefined>((resolve) => {
    const onAbort = () => {
      resolve(undefined);
      client.end().catch(() => undefined);
    };
    client.on('error', (err) => resolve(err.message));
    client.on('end', () => resolve('the connection ended'));
    signal.addEventListener('abort', onAbort, { once: true });
    release = () => signal.removeEventListener('abort', onAbort);
  });
  return { until, release };
}

/** Listens until `signal` aborts; never rejects. */
export async function listen(deps: ListenerDeps, signal: AbortSignal): Promise<void> {
  const { logger } = deps;
  const names = Object.keys(deps.channels);
  const firstRetryMs = deps.firstRetryMs ?? 500;
  let retryMs = firstRetryMs;
  while (!signal.aborted) {
    const client = new pg.Client({
      connectionString: deps.connectionString,
      application_name: LISTENER_NAME,
      keepAlive: true,
      connectionTimeoutMillis: 10_000,
    });
    // Listened to before connecting: an 'error' event without a listener would end the process.
    const connection = lost(client, signal);
    // A connect or a LISTEN under way when the signal aborts (or the connection fails) may never
    // settle once the client is ended: the loss ends the wait for it.
    const unlessLost = <T>(work: Promise<T>): Promise<T> =>
      Promise.race([work, connection.until.then((reason) => Promise.reject(new Error(reason ?? 'stopped')))]);
    try {
      await unlessLost(client.connect());
      client.on('notification', (message) => {
        if (Object.hasOwn(deps.channels, message.channel)) deps.channels[message.channel]!(message.payload ?? '');
      });
      // One statement: every channel is listened to before onConnect, or none is.
      await unlessLost(client.query(names.map((name) => `LISTEN ${client.escapeIdentifier(name)}`).join('; ')));
      logger.info({ channels: names }, 'listening for notifications');
      retryMs = firstRetryMs;
      deps.onConnect();
      const reason = await connection.until;
      if (!signal.aborted) logger.warn({ err: reason, retryMs }, 'the listener lost its connection; reconnecting');
    } catch (err) {
      if (!signal.aborted)
        logger.warn({ err: (err as Error).message, retryMs }, 'the listener could not connect; retrying');
    } finally {
      connection.release();
      // Bounded: ending a connection whose socket is already gone must not hold the loop.
      await Promise.race([client.end().catch(() => undefined), sleep(1000, undefined, { ref: false })]);
    }
    if (signal.aborted) return;
    await sleep(retryMs, undefined, { signal }).catch(() => undefined);
    retryMs = Math.min(retryMs * 2, deps.maxRetryMs ?? 30_000);
  }
}
