/**
 * PostgreSQL's LISTEN for queued webhooks: a connection of its own (a pooled one is shared
 * between queries, and a LISTEN belongs to the session that ran it) on which every committed
 * NOTIFY on WEBHOOK_CHANNEL (outbox.ts) wakes the dispatcher. It wakes it once more on every
 * (re)connection, for what was queued while it was not listening. A lost connection is logged
 * and made again after a pause that doubles up to `maxRetryMs`; the dispatcher's poll covers
 * the gap.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import type { Logger } from '../logger';
import { WEBHOOK_CHANNEL } from './outbox';

/** The listener's application_name, as pg_stat_activity shows it. */
export const LISTENER_NAME = 'trustgate webhook listener';

export interface ListenerDeps {
  /** The PostgreSQL database's URL (DATABASE_URL). */
  connectionString: string;
  logger: Logger;
  /** Called on every notification, and once on every (re)connection. */
  onNotify(): void;
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
export async function listenForWebhooks(deps: ListenerDeps, signal: AbortSignal): Promise<void> {
  const { logger } = deps;
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
    try {
      await client.connect();
      client.on('notification', (message) => {
        if (message.channel === WEBHOOK_CHANNEL) deps.onNotify();
      });
      await client.query(`LISTEN ${WEBHOOK_CHANNEL}`);
      logger.info({ channel: WEBHOOK_CHANNEL }, 'listening for queued webhooks');
      retryMs = firstRetryMs;
      deps.onNotify();
      const reason = await connection.until;
      if (!signal.aborted)
        logger.warn({ err: reason, retryMs }, 'the webhook listener lost its connection; reconnecting');
    } catch (err) {
      if (!signal.aborted)
        logger.warn({ err: (err as Error).message, retryMs }, 'the webhook listener could not connect; retrying');
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
