/**
 * Configuration: declared (schema.ts), validated and read from the environment (load.ts) here
 * and nowhere else; one module per area for the settings that need more than a number or a flag.
 */
export { BACKTEST_DEFAULTS, type BacktestLimits } from './backtest';
export { databaseLocation, DB_DEFAULTS, DEFAULT_DATA_DIR, sqliteFile } from './database';
export { ConfigError } from './env';
export { IP_LIST_SOURCE_DEFAULTS, type SyncableList } from './ip-lists';
export { loadConfig } from './load';
export { isLoopbackHost, type OidcConfig } from './oidc';
export type { Config } from './schema';
export { DEFAULT_API_KEY_CACHE_TTL_MS, DEFAULT_STATS_FLUSH_MS, listenUrl, RETENTION_DEFAULTS } from './server';
export type { TracingConfig } from './tracing';
