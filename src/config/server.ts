/** How the server listens and is reached: its public URL, proxies, processes and background work. */
import os from 'node:os';
import { HOUR_MS } from '../clock';
import { ConfigError } from './env';

export function trustProxy(raw: string | undefined): boolean | number | string {
  if (raw === undefined || raw === '') return false;
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  if (/^\d+$/.test(raw)) return Number(raw);
  return raw;
}

export function webhookWorker(raw: string | undefined): 'inline' | 'off' {
  if (raw === undefined || raw === '' || raw === 'inline') return 'inline';
  if (raw === 'off') return 'off';
  throw new ConfigError(`WEBHOOK_WORKER must be inline or off, got ${JSON.stringify(raw)}`);
}

const PUBLIC_BASE_URL_RULE =
  'PUBLIC_BASE_URL must be an http or https URL without credentials, query or fragment (e.g. https://trustgate.example.com)';

/**
 * PUBLIC_BASE_URL: an http or https URL without credentials, query or fragment; a path is kept
 * (a service behind a proxy under `/trustgate`), without its trailing slash.
 */
export function publicBaseUrl(raw: string | undefined): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  const rule = `${PUBLIC_BASE_URL_RULE}, got ${JSON.stringify(raw)}`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(rule);
  }
  if (
    (url.protocol !== 'http:' && url.protocol !== 'https:') ||
    url.username ||
    url.password ||
    url.search ||
    url.hash ||
    raw.includes('?') ||
    raw.includes('#')
  ) {
    throw new ConfigError(rule);
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** The URL of a server listening on `host:port`, as a browser on this machine reaches it (every interface: loopback). */
export function listenUrl(host: string, port: number): string {
  const reachable = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  return `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`;
}

/** A number of processes, or `auto`: one per core this process may use. */
export function webConcurrency(raw: string | undefined): number {
  if (raw === undefined || raw === '') return 1;
  if (raw === 'auto') return os.availableParallelism();
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > 1024)
    throw new ConfigError(`WEB_CONCURRENCY must be auto or an integer from 1 to 1024, got ${JSON.stringify(raw)}`);
  return value;
}

/**
 * Retention passes (usecases/retention.ts): hourly, 200 rows a batch, each batch its own
 * transaction; at most 500 rows a batch, so no transaction holds the write lock for long.
 */
export const RETENTION_DEFAULTS = { intervalMs: HOUR_MS, batch: 200, maxBatch: 500 } as const;

/**
 * The default of API_KEY_CACHE_TTL_MS: a few seconds, the longest a key rotated elsewhere keeps
 * working where no notification reaches (SQLite, a PostgreSQL listener reconnecting).
 */
export const DEFAULT_API_KEY_CACHE_TTL_MS = 5_000;
/** How often the overview's counts are written (STATS_FLUSH_MS). */
export const DEFAULT_STATS_FLUSH_MS = 5_000;
