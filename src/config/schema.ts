/** Every setting of the service, declared with what it means (loaded and checked by load.ts). */
import type { BacktestLimits } from './backtest';
import type { SyncableList } from './ip-lists';
import type { OidcConfig } from './oidc';
import type { TracingConfig } from './tracing';

export interface Config {
  /** TCP port to listen on (0 picks a free one). */
  port: number;
  host: string;
  /**
   * The origin (and path prefix) of every absolute URL the service makes: the hosted page's,
   * media URLs in results and webhooks. PUBLIC_BASE_URL; unset, the listen address
   * (listenUrl). Never taken from a request's Host or X-Forwarded-* headers.
   */
  publicBaseUrl?: string;
  /**
   * Folder for the embedded database, the generated secret key and media: DATA_DIR (a relative
   * one from the current directory), else `data` in the installation (DEFAULT_DATA_DIR), so that
   * the server and the CLI find one database from wherever they are started.
   */
  dataDir: string;
  /** `postgres://…` for PostgreSQL; undefined for the embedded SQLite file in `dataDir`. */
  databaseUrl?: string;
  /**
   * 32-byte key (base64) that seals secrets at rest (webhook secrets, results, queued webhooks,
   * media); when absent, dataDir's secret.key, generated there on SQLite only (with PostgreSQL
   * every node must hold the same key, so none is made).
   */
  secretKey?: string;
  /**
   * Keys that sealed before a rotation (TRUSTGATE_PREVIOUS_SECRET_KEYS, base64, comma-separated):
   * they still open what they sealed, and seal nothing new; `trustgate secret-key reseal` moves
   * what they sealed to the current key.
   */
  previousSecretKeys: string[];
  /** Requests per minute per API key. */
  rateLimitPerMinute: number;
  /** Exports and webhook replays per minute per API key, on top of rateLimitPerMinute. */
  bulkRateLimitPerMinute: number;
  /** Failed authentications (unknown API keys) per minute per client address; past it, 429. */
  authFailureLimitPerIp: number;
  /** Console sign-in attempts (POST /console/login) per minute per client address, and per email; past either, 429. */
  consoleLoginLimitPerIp: number;
  consoleLoginLimitPerAccount: number;
  /** How long a console session lasts at most, and without a request (milliseconds). */
  consoleSessionTtlMs: number;
  consoleSessionIdleMs: number;
  /**
   * The console cookie without `Secure` (named `tg_session`, as a `__Host-` cookie must be
   * Secure): for plain-http development on localhost only (CONSOLE_INSECURE_COOKIE=1).
   */
  consoleInsecureCookie: boolean;
  /** Console sign-in through OpenID Connect (docs/console-auth.md); undefined unless OIDC_ISSUER is set. */
  oidc?: OidcConfig;
  /**
   * Where the rate limits count: `database` (one row per key and minute, shared by every process
   * on the database) or `memory` (per process: N processes allow N times the limits).
   */
  rateLimitStore: 'database' | 'memory';
  /**
   * How long an API key's project is kept in this process's memory (0: not kept). A key rotated
   * by this process stops working at once; rotated by another (the CLI), within this time.
   */
  apiKeyCacheTtlMs: number;
  /**
   * How often the overview's counts (GET /stats) tallied in this process's memory are written,
   * in milliseconds (STATS_FLUSH_MS); a process killed without a graceful stop loses up to this much.
   */
  statsFlushMs: number;
  /** Server processes on this machine (node:cluster workers when above 1). */
  webConcurrency: number;
  /** SDK posts per minute per client address, and per project. */
  ingestRateLimitPerIp: number;
  ingestRateLimitPerProject: number;
  /**
   * Visits of the public verification link (GET /public/liveness-redirect, each starts a session)
   * per minute per client address, and per project.
   */
  publicRedirectRateLimitPerIp: number;
  publicRedirectRateLimitPerProject: number;
  /** Operators' own MaxMind-format databases (GeoIP2/GeoLite2 City and ASN), replacing the shipped data. */
  geoipCityDb?: string;
  geoipAsnDb?: string;
  /** Additions to (ASN) and removals from (-ASN) the curated hosting ASN list, one a line. */
  hostingAsnsFile?: string;
  /**
   * The operator's IP risk lists (`tor.txt`, `vpn.txt`, `proxy.txt`, `datacenter.txt`, `fraud.txt`,
   * `relay.txt`); `<dataDir>/ip-lists` unless set.
   */
  ipListsDir?: string;
  /**
   * Where `trustgate iplist sync` reads each list from (IPLIST_SOURCE_<LIST>): an http(s) URL or
   * a file (a mirror); `off` leaves the list out. Unset: IP_LIST_SOURCE_DEFAULTS.
   */
  ipListSources: Partial<Record<SyncableList, string>>;
  /** The longest one list's download may take (IPLIST_SYNC_TIMEOUT_MS). */
  ipListSyncTimeoutMs: number;
  /** A synced list older than this many days is stale: logged at start, flagged by /healthz (IPLIST_STALE_DAYS). */
  ipListStaleDays: number;
  /**
   * How often a server looks for changed IP lists (IPLIST_WATCH_MS): the files' modification
   * times, or on PostgreSQL the lists' versions in the database; and, on PostgreSQL, how often
   * it records the digests of its IP data files and compares them with the other nodes'.
   */
  ipListWatchMs: number;
  /** Validate responses against the spec (on outside production unless set). */
  validateResponses: boolean;
  logLevel: string;
  /** Express's `trust proxy` setting (for X-Forwarded-For behind a load balancer). */
  trustProxy: boolean | number | string;
  /** `inline`: the server delivers webhooks, sweeps expired sessions and runs retention passes itself; `off`: `trustgate worker` does. */
  webhookWorker: 'inline' | 'off';
  /** Deliver webhooks to private, loopback and link-local addresses (development and tests). */
  webhookAllowPrivate: boolean;
  /** The longest the webhook dispatcher sleeps without being woken (a fallback: queued webhooks wake it). */
  webhookPollMs: number;
  /** Webhooks one claim takes and posts at once. */
  webhookBatch: number;
  /** How often the worker runs a retention pass (usecases/retention.ts). */
  retentionIntervalMs: number;
  /** Rows one retention batch removes in its own transaction (at most 500). */
  retentionBatch: number;
  /** How long a worker's claim on a webhook holds before another worker may take it over. */
  webhookLeaseMs: number;
  /**
   * A factor on the retry schedule's waits (1 = webhooks.yaml's 3 s, 10 s, 3 min, …). Below 1
   * only for staging, load tests and demonstrations: receivers are retried sooner.
   */
  webhookRetryScale: number;
  /** `local`: faces and documents are analysed in this process (src/analysis/); `off`: completing a verification answers 503. */
  analysisEngine: 'local' | 'off';
  /** Serve the demo sign-up page at /demo (on outside production unless set). */
  demo: boolean;
  /** Evaluations (the Session API) run at once per process; more wait in arrival order (src/http/admission.ts). */
  evaluationConcurrency: number;
  /** How many backtests (POST /rules/test) run at once, and the work and time one may take (config/backtest.ts). */
  backtest: BacktestLimits;
  /** PostgreSQL connections per process. */
  databasePoolSize: number;
  /** PostgreSQL: the hot path's connections per process, each shared by every request and pipelined. */
  databaseHotConnections: number;
  /** SQLite page cache and memory map, in MB. */
  sqliteCacheMb: number;
  sqliteMmapMb: number;
  sqliteCheckpointMs: number;
  /** SQLite: the evaluation's statements and the rate limit's on a thread of their own (storage/sqlite/thread.ts). */
  sqliteThread: boolean;
  /** Largest JSON body accepted. */
  bodyLimit: string;
  /** Prometheus metrics at GET /metrics (METRICS, on unless set off). */
  metrics: boolean;
  /** When set, GET /metrics answers only `Authorization: Bearer <token>` (METRICS_TOKEN). */
  metricsToken?: string;
  /** OpenTelemetry tracing, from the SDK's standard OTEL_* variables; undefined: off. */
  tracing?: TracingConfig;
  nodeEnv: string;
}
