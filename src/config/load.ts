/** loadConfig: every setting read from the environment, checked, with its default. */
import path from 'node:path';
import { DAY_MS, HOUR_MS, MINUTE_MS } from '../clock';
import { backtestLimits } from './backtest';
import { DB_DEFAULTS, DEFAULT_DATA_DIR, sqliteMmapDefault } from './database';
import { ConfigError, flag, fraction, integer, oneOf } from './env';
import { ipListSources } from './ip-lists';
import { oidcConfig } from './oidc';
import type { Config } from './schema';
import {
  DEFAULT_API_KEY_CACHE_TTL_MS,
  DEFAULT_STATS_FLUSH_MS,
  publicBaseUrl,
  RETENTION_DEFAULTS,
  trustProxy,
  webConcurrency,
  webhookWorker,
} from './server';
import { tracingConfig } from './tracing';

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const nodeEnv = env.NODE_ENV ?? 'development';
  const databaseUrl = env.DATABASE_URL || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must be a postgres:// URL; leave it unset for the embedded SQLite database');
  }
  const secretKey = env.TRUSTGATE_SECRET_KEY || undefined;
  if (secretKey && !isKey(secretKey)) {
    throw new ConfigError('TRUSTGATE_SECRET_KEY must be 32 bytes, base64-encoded (openssl rand -base64 32)');
  }
  const dataDir = env.DATA_DIR ? path.resolve(env.DATA_DIR) : DEFAULT_DATA_DIR;
  const base = publicBaseUrl(env.PUBLIC_BASE_URL);
  const oidc = oidcConfig(env, base);
  const processes = webConcurrency(env.WEB_CONCURRENCY);
  return {
    port: integer(env, 'PORT', 3000, 0, 65535),
    host: env.HOST || '0.0.0.0',
    publicBaseUrl: base,
    dataDir,
    databaseUrl,
    secretKey,
    previousSecretKeys: previousSecretKeys(env.TRUSTGATE_PREVIOUS_SECRET_KEYS),
    rateLimitPerMinute: integer(env, 'RATE_LIMIT_PER_MINUTE', 300, 1, 1_000_000),
    bulkRateLimitPerMinute: integer(env, 'BULK_RATE_LIMIT_PER_MINUTE', 30, 1, 1_000_000),
    authFailureLimitPerIp: integer(env, 'AUTH_FAILURE_LIMIT_PER_IP', 30, 1, 1_000_000),
    consoleLoginLimitPerIp: integer(env, 'CONSOLE_LOGIN_LIMIT_PER_IP', 20, 1, 1_000_000),
    consoleLoginLimitPerAccount: integer(env, 'CONSOLE_LOGIN_LIMIT_PER_ACCOUNT', 10, 1, 1_000_000),
    consoleSessionTtlMs: integer(env, 'CONSOLE_SESSION_TTL_MINUTES', 720, 1, 525_600) * MINUTE_MS,
    consoleSessionIdleMs: integer(env, 'CONSOLE_SESSION_IDLE_MINUTES', 60, 1, 525_600) * MINUTE_MS,
    consoleInsecureCookie: flag(env, 'CONSOLE_INSECURE_COOKIE', false),
    ...(oidc ? { oidc } : {}),
    rateLimitStore: oneOf(env, 'RATE_LIMIT_STORE', ['database', 'memory'] as const, 'database'),
    apiKeyCacheTtlMs: integer(env, 'API_KEY_CACHE_TTL_MS', DEFAULT_API_KEY_CACHE_TTL_MS, 0, 300_000),
    statsFlushMs: integer(env, 'STATS_FLUSH_MS', DEFAULT_STATS_FLUSH_MS, 100, HOUR_MS),
    webConcurrency: processes,
    ingestRateLimitPerIp: integer(env, 'INGEST_RATE_LIMIT_PER_IP', 300, 1, 1_000_000),
    ingestRateLimitPerProject: integer(env, 'INGEST_RATE_LIMIT_PER_PROJECT', 60_000, 1, 100_000_000),
    publicRedirectRateLimitPerIp: integer(env, 'PUBLIC_REDIRECT_RATE_LIMIT_PER_IP', 10, 1, 1_000_000),
    publicRedirectRateLimitPerProject: integer(env, 'PUBLIC_REDIRECT_RATE_LIMIT_PER_PROJECT', 100, 1, 1_000_000),
    geoipCityDb: env.GEOIP_CITY_DB || undefined,
    geoipAsnDb: env.GEOIP_ASN_DB || undefined,
    hostingAsnsFile: env.HOSTING_ASNS_FILE || undefined,
    ipListsDir: env.IP_LISTS_DIR ? path.resolve(env.IP_LISTS_DIR) : path.join(dataDir, 'ip-lists'),
    ipListSources: ipListSources(env),
    ipListSyncTimeoutMs: integer(env, 'IPLIST_SYNC_TIMEOUT_MS', 120_000, 100, HOUR_MS),
    ipListStaleDays: integer(env, 'IPLIST_STALE_DAYS', 7, 1, 3650),
    ipListWatchMs: integer(env, 'IPLIST_WATCH_MS', 5000, 10, HOUR_MS),
    validateResponses: flag(env, 'VALIDATE_RESPONSES', nodeEnv !== 'production'),
    logLevel: env.LOG_LEVEL || (nodeEnv === 'test' ? 'silent' : 'info'),
    trustProxy: trustProxy(env.TRUST_PROXY),
    bodyLimit: env.BODY_LIMIT || '1mb',
    evaluationConcurrency: integer(env, 'EVALUATION_CONCURRENCY', 64, 1, 10_000),
    backtest: backtestLimits(env),
    databasePoolSize: integer(env, 'DATABASE_POOL_SIZE', DB_DEFAULTS.poolSize, 1, 1000),
    databaseHotConnections: integer(env, 'DATABASE_HOT_CONNECTIONS', DB_DEFAULTS.hotConnections, 1, 1000),
    sqliteCacheMb: integer(env, 'SQLITE_CACHE_MB', DB_DEFAULTS.sqliteCacheMb, 1, 1_000_000),
    sqliteMmapMb: integer(env, 'SQLITE_MMAP_MB', sqliteMmapDefault(processes), 0, 1_000_000),
    sqliteCheckpointMs: integer(env, 'SQLITE_CHECKPOINT_MS', DB_DEFAULTS.sqliteCheckpointMs, 0, 60_000),
    sqliteThread: flag(env, 'SQLITE_THREAD', true),
    demo: flag(env, 'DEMO', nodeEnv !== 'production'),
    webhookWorker: webhookWorker(env.WEBHOOK_WORKER),
    webhookAllowPrivate: flag(env, 'WEBHOOK_ALLOW_PRIVATE', false),
    webhookLeaseMs: integer(env, 'WEBHOOK_LEASE_MS', 60_000, 100, DAY_MS),
    webhookPollMs: integer(env, 'WEBHOOK_POLL_MS', 1000, 1, HOUR_MS),
    webhookBatch: integer(env, 'WEBHOOK_BATCH', 64, 1, 10_000),
    retentionIntervalMs: integer(env, 'RETENTION_INTERVAL_MS', RETENTION_DEFAULTS.intervalMs, 1000, 7 * DAY_MS),
    retentionBatch: integer(env, 'RETENTION_BATCH', RETENTION_DEFAULTS.batch, 1, RETENTION_DEFAULTS.maxBatch),
    webhookRetryScale: fraction(env, 'WEBHOOK_RETRY_SCALE', 1),
    analysisEngine: oneOf(env, 'ANALYSIS_ENGINE', ['local', 'off'] as const, 'local'),
    metrics: flag(env, 'METRICS', true),
    metricsToken: env.METRICS_TOKEN || undefined,
    tracing: tracingConfig(env),
    nodeEnv,
  };
}

const isKey = (text: string) => Buffer.from(text, 'base64').length === 32;

/** TRUSTGATE_PREVIOUS_SECRET_KEYS: keys separated by commas, each as TRUSTGATE_SECRET_KEY is. */
function previousSecretKeys(raw: string | undefined): string[] {
  const keys = (raw ?? '')
    .split(',')
    .map((k) => k.trim())
    .filter((k) => k !== '');
  keys.forEach((key, i) => {
    if (!isKey(key))
      throw new ConfigError(
        `TRUSTGATE_PREVIOUS_SECRET_KEYS must be keys of 32 bytes, base64-encoded, separated by commas; key ${i + 1} is not`,
      );
  });
  return keys;
}
