/** Configuration: declared, validated and read from the environment here and nowhere else. */
import os from 'node:os';
import path from 'node:path';
import { DAY_MS, HOUR_MS, MINUTE_MS } from './clock';
import { PACKAGE_ROOT } from './spec';

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
  /** 32-byte key (base64) that encrypts webhook secrets at rest; generated into dataDir when absent. */
  secretKey?: string;
  /** Requests per minute per API key. */
  rateLimitPerMinute: number;
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
  /** Visits of the public verification link (GET /public/liveness-redirect, each starts a session) per minute per client address, and per project. */
  publicRedirectRateLimitPerIp: number;
  publicRedirectRateLimitPerProject: number;
  /** Operators' own MaxMind-format databases (GeoIP2/GeoLite2 City and ASN), replacing the shipped data. */
  geoipCityDb?: string;
  geoipAsnDb?: string;
  /** Additions to (ASN) and removals from (-ASN) the curated hosting ASN list, one a line. */
  hostingAsnsFile?: string;
  /** The operator's IP risk lists (`tor.txt`, `vpn.txt`, `proxy.txt`, `datacenter.txt`, `fraud.txt`, `relay.txt`); `<dataDir>/ip-lists` unless set. */
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

/**
 * Tracing settings, read as the OpenTelemetry SDK reads them: on when OTEL_TRACES_EXPORTER is
 * `otlp` or `console`, or when it is unset and an OTLP endpoint is (OTEL_EXPORTER_OTLP_ENDPOINT
 * or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT); off when OTEL_SDK_DISABLED is true or the exporter is
 * `none`. OTLP over HTTP only, its JSON encoding (OTLP/HTTP receivers take both encodings on one
 * endpoint); OTEL_EXPORTER_OTLP_PROTOCOL=grpc is refused.
 */
export interface TracingConfig {
  exporter: 'otlp' | 'console';
  /** The traces endpoint (…/v1/traces): OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as is, or OTEL_EXPORTER_OTLP_ENDPOINT + /v1/traces. */
  endpoint: string;
  /** OTEL_EXPORTER_OTLP_HEADERS and OTEL_EXPORTER_OTLP_TRACES_HEADERS (`key=value,…`, percent-decoded). */
  headers: Record<string, string>;
  /** OTEL_SERVICE_NAME (default trustgate). */
  serviceName: string;
  /** OTEL_RESOURCE_ATTRIBUTES (`key=value,…`). */
  resourceAttributes: Record<string, string>;
  /** OTEL_TRACES_SAMPLER (the SDK's names; default parentbased_always_on) and OTEL_TRACES_SAMPLER_ARG (a ratio). */
  sampler: (typeof SAMPLERS)[number];
  samplerRatio: number;
}

export class ConfigError extends Error {}

/**
 * The published lists `trustgate iplist sync` fetches unless told otherwise (the names are
 * geo/ip-lists/names.ts's; a test holds them equal):
 * - tor: the Tor Project's bulk exit list (every exit relay's address; public data).
 * - relay: Apple's iCloud Private Relay egress ranges (CSV: range, country, region, city),
 *   which Apple publishes so that services can recognise relay traffic.
 * - vpn: X4BNet `lists_vpn`'s known VPN networks (IPv4; MIT licence), rebuilt daily from VPN
 *   providers' ASNs and published server lists.
 * None for datacenter (X4BNet's is ASN-based and takes in universities and ISPs; the curated
 * hosting ASNs serve instead), proxy and fraud (no maintained, freely licensed list).
 */
export const IP_LIST_SOURCE_DEFAULTS = {
  tor: 'https://check.torproject.org/torbulkexitlist',
  relay: 'https://mask-api.icloud.com/egress-ip-ranges.csv',
  vpn: 'https://raw.githubusercontent.com/X4BNet/lists_vpn/main/output/vpn/ipv4.txt',
  datacenter: undefined,
  proxy: undefined,
  fraud: undefined,
} as const satisfies Record<string, string | undefined>;

export type SyncableList = keyof typeof IP_LIST_SOURCE_DEFAULTS;

/** IPLIST_SOURCE_<LIST> for each list: a URL, a file (made absolute), `off`, or unset for the default. */
function ipListSources(env: NodeJS.ProcessEnv): Partial<Record<SyncableList, string>> {
  const sources: Partial<Record<SyncableList, string>> = {};
  for (const [list, fallback] of Object.entries(IP_LIST_SOURCE_DEFAULTS) as [SyncableList, string | undefined][]) {
    const name = `IPLIST_SOURCE_${list.toUpperCase()}`;
    const raw = env[name];
    if (raw === undefined || raw === '') {
      if (fallback) sources[list] = fallback;
      continue;
    }
    if (raw === 'off') continue;
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(raw)) {
      let url: URL | undefined;
      try {
        url = new URL(raw);
      } catch {
        url = undefined;
      }
      if (!url || !['http:', 'https:', 'file:'].includes(url.protocol))
        throw new ConfigError(`${name} must be an http(s) or file URL, a file path or off, got ${JSON.stringify(raw)}`);
      sources[list] = raw;
    } else sources[list] = path.resolve(raw);
  }
  return sources;
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(raw)}`);
  }
  return value;
}

function fraction(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0 || value > 1)
    throw new ConfigError(`${name} must be a number above 0 and at most 1, got ${JSON.stringify(raw)}`);
  return value;
}

function oneOf<T extends string>(env: NodeJS.ProcessEnv, name: string, values: readonly T[], fallback: T): T {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if ((values as readonly string[]).includes(raw)) return raw as T;
  throw new ConfigError(`${name} must be one of ${values.join(', ')}, got ${JSON.stringify(raw)}`);
}

function flag(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw.toLowerCase())) return true;
  if (['0', 'false', 'no', 'off'].includes(raw.toLowerCase())) return false;
  throw new ConfigError(`${name} must be true or false, got ${JSON.stringify(raw)}`);
}

/** The OTLP/HTTP default (a collector on this machine), as the SDK's. */
const OTLP_DEFAULT_ENDPOINT = 'http://localhost:4318';

/** `key=value,key2=value2` (OTEL_EXPORTER_OTLP_HEADERS, OTEL_RESOURCE_ATTRIBUTES), values percent-decoded. */
function keyValues(env: NodeJS.ProcessEnv, name: string): Record<string, string> {
  const raw = env[name];
  const out: Record<string, string> = {};
  if (!raw) return out;
  for (const part of raw.split(',')) {
    if (part.trim() === '') continue;
    const at = part.indexOf('=');
    if (at <= 0) throw new ConfigError(`${name} must be key=value pairs separated by commas`);
    try {
      out[decodeURIComponent(part.slice(0, at).trim())] = decodeURIComponent(part.slice(at + 1).trim());
    } catch {
      throw new ConfigError(`${name} has a value that is not percent-encoded UTF-8`);
    }
  }
  return out;
}

function httpUrl(name: string, raw: string): string {
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    throw new ConfigError(`${name} must be an http or https URL, got ${JSON.stringify(raw)}`);
  return raw;
}

const SAMPLERS = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const;

/** The tracing settings (TracingConfig), or undefined when tracing is off. */
function tracingConfig(env: NodeJS.ProcessEnv): TracingConfig | undefined {
  if (flag(env, 'OTEL_SDK_DISABLED', false)) return undefined;
  const tracesEndpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || undefined;
  const baseEndpoint = env.OTEL_EXPORTER_OTLP_ENDPOINT || undefined;
  const exporterRaw = env.OTEL_TRACES_EXPORTER?.trim();
  let exporter: TracingConfig['exporter'] | undefined;
  if (exporterRaw === undefined || exporterRaw === '') exporter = tracesEndpoint || baseEndpoint ? 'otlp' : undefined;
  else if (exporterRaw === 'none') exporter = undefined;
  else
    exporter = oneOf(
      env,
      'OTEL_TRACES_EXPORTER',
      ['otlp', 'console', 'none'] as const,
      'none',
    ) as TracingConfig['exporter'];
  if (!exporter) return undefined;
  const protocol = env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL || env.OTEL_EXPORTER_OTLP_PROTOCOL;
  if (exporter === 'otlp' && protocol && protocol !== 'http/protobuf' && protocol !== 'http/json')
    throw new ConfigError(
      `OTEL_EXPORTER_OTLP_PROTOCOL must be http/protobuf or http/json (grpc is not supported), got ${JSON.stringify(protocol)}`,
    );
  const endpoint = tracesEndpoint
    ? httpUrl('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', tracesEndpoint)
    : `${httpUrl('OTEL_EXPORTER_OTLP_ENDPOINT', baseEndpoint ?? OTLP_DEFAULT_ENDPOINT).replace(/\/+$/, '')}/v1/traces`;
  const sampler = oneOf(env, 'OTEL_TRACES_SAMPLER', SAMPLERS, 'parentbased_always_on');
  const ratioRaw = env.OTEL_TRACES_SAMPLER_ARG;
  const samplerRatio = ratioRaw === undefined || ratioRaw === '' ? 1 : Number(ratioRaw);
  if (!Number.isFinite(samplerRatio) || samplerRatio < 0 || samplerRatio > 1)
    throw new ConfigError(`OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1, got ${JSON.stringify(ratioRaw)}`);
  return {
    exporter,
    endpoint,
    headers: {
      ...keyValues(env, 'OTEL_EXPORTER_OTLP_HEADERS'),
      ...keyValues(env, 'OTEL_EXPORTER_OTLP_TRACES_HEADERS'),
    },
    serviceName: env.OTEL_SERVICE_NAME || 'trustgate',
    resourceAttributes: keyValues(env, 'OTEL_RESOURCE_ATTRIBUTES'),
    sampler,
    samplerRatio,
  };
}

function trustProxy(raw: string | undefined): boolean | number | string {
  if (raw === undefined || raw === '') return false;
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  if (/^\d+$/.test(raw)) return Number(raw);
  return raw;
}

/** An OpenID Connect provider for the console's sign-in (OIDC_*; docs/console-auth.md, "Single sign-on"). */
export interface OidcConfig {
  /** The provider's issuer URL (its discovery document is at `<issuer>/.well-known/openid-configuration`). */
  issuer: string;
  clientId: string;
  /** Absent: a public client (PKCE alone). */
  clientSecret?: string;
  /** Where the provider sends the browser back: OIDC_REDIRECT_URL, else PUBLIC_BASE_URL + /console/oidc/callback. */
  redirectUrl: string;
  /** The scopes asked for: `openid email` unless OIDC_SCOPES says otherwise (openid and email are needed). */
  scopes: string;
  /** The sign-in button's text. */
  label: string;
}

/** Whether a host name is this machine's (localhost, 127.0.0.0/8, ::1): the only one plain http is accepted for, for an OIDC provider. */
export const isLoopbackHost = (hostname: string): boolean => /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$/.test(hostname);

/** The console's OpenID Connect settings: all or nothing, https (or http on this machine only). */
function oidcConfig(env: NodeJS.ProcessEnv, base: string | undefined): OidcConfig | undefined {
  const issuer = env.OIDC_ISSUER || undefined;
  if (!issuer) {
    const stray = ['OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET', 'OIDC_REDIRECT_URL'].filter((name) => env[name]);
    if (stray.length > 0) throw new ConfigError(`${stray.join(', ')} set without OIDC_ISSUER`);
    return undefined;
  }
  const secure = (name: string, raw: string): URL => {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new ConfigError(`${name} must be a URL, got ${JSON.stringify(raw)}`);
    }
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname)))
      throw new ConfigError(`${name} must be an https URL (http only on this machine: localhost, 127.0.0.1, ::1)`);
    if (url.username || url.password || url.hash)
      throw new ConfigError(`${name} must carry no credentials or fragment`);
    return url;
  };
  secure('OIDC_ISSUER', issuer);
  const clientId = env.OIDC_CLIENT_ID || undefined;
  if (!clientId) throw new ConfigError('OIDC_CLIENT_ID is required with OIDC_ISSUER');
  const redirect = env.OIDC_REDIRECT_URL || (base ? `${base}/console/oidc/callback` : undefined);
  if (!redirect) throw new ConfigError('OIDC_ISSUER needs PUBLIC_BASE_URL (or OIDC_REDIRECT_URL) for its redirect URL');
  const redirectUrl = secure('OIDC_REDIRECT_URL', redirect);
  if (!redirectUrl.pathname.endsWith('/console/oidc/callback') || redirectUrl.search)
    throw new ConfigError('OIDC_REDIRECT_URL must end with /console/oidc/callback and carry no query');
  const scopes = (env.OIDC_SCOPES || 'openid email').trim().split(/\s+/);
  if (!scopes.includes('openid') || !scopes.includes('email'))
    throw new ConfigError(`OIDC_SCOPES must include openid and email, got ${JSON.stringify(env.OIDC_SCOPES)}`);
  return {
    issuer,
    clientId,
    ...(env.OIDC_CLIENT_SECRET ? { clientSecret: env.OIDC_CLIENT_SECRET } : {}),
    redirectUrl: redirectUrl.href,
    scopes: scopes.join(' '),
    label: env.OIDC_LABEL || 'Single sign-on',
  };
}

function webhookWorker(raw: string | undefined): 'inline' | 'off' {
  if (raw === undefined || raw === '' || raw === 'inline') return 'inline';
  if (raw === 'off') return 'off';
  throw new ConfigError(`WEBHOOK_WORKER must be inline or off, got ${JSON.stringify(raw)}`);
}

/**
 * PUBLIC_BASE_URL: an http or https URL without credentials, query or fragment; a path is kept
 * (a service behind a proxy under `/trustgate`), without its trailing slash.
 */
function publicBaseUrl(raw: string | undefined): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  const rule = `PUBLIC_BASE_URL must be an http or https URL without credentials, query or fragment (e.g. https://trustgate.example.com), got ${JSON.stringify(raw)}`;
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

/**
 * The database's defaults (DATABASE_POOL_SIZE, DATABASE_HOT_CONNECTIONS, SQLITE_CACHE_MB,
 * SQLITE_MMAP_MB, SQLITE_CHECKPOINT_MS), also makeDb's (storage/db.ts) when a setting is not
 * given. The hot path's connections are each shared by every request (storage/postgres/pipeline.ts):
 * one carries a turn's statements in one write and keeps them queued at one server process,
 * where more spread them back over idle ones, each woken for its share; a server process does
 * less work an authenticate than the Node process, so one keeps up with it (docs/pipeline.md,
 * *How many connections*).
 */
export const DB_DEFAULTS = {
  poolSize: 10,
  hotConnections: 1,
  sqliteCacheMb: 256,
  sqliteMmapMb: 1024,
  // 100 against 200: first authenticates' p99 24.7–33.9 ms against 30.9–42.9 in six pairs, the
  // same req/s, repeated ones the same (docs/speed-log.md, 2026-11-30).
  sqliteCheckpointMs: 100,
} as const;

/** The default of API_KEY_CACHE_TTL_MS: a few seconds, the longest a key rotated elsewhere keeps working. */
/**
 * Retention passes (usecases/retention.ts): hourly, 200 rows a batch, each batch its own
 * transaction; at most 500 rows a batch, so no transaction holds the write lock for long.
 */
export const RETENTION_DEFAULTS = { intervalMs: HOUR_MS, batch: 200, maxBatch: 500 } as const;

export const DEFAULT_API_KEY_CACHE_TTL_MS = 5_000;
/** How often the overview's counts are written (STATS_FLUSH_MS). */
export const DEFAULT_STATS_FLUSH_MS = 5_000;

/**
 * SQLITE_MMAP_MB's default: the memory map for one process, none for several. A SQLite
 * connection that begins a read and finds another connection's commit in the write-ahead log
 * empties its page cache and drops its whole memory map (pager.c `pagerBeginReadTransaction`),
 * so with several processes writing the file each maps back and faults in, page by page, what
 * its next statements read: on 2 cores two processes spent a median 2.37 ms of CPU an
 * authenticate with the map and 1.99 without it (README, *One machine, all cores*). One
 * process's own commits leave its map in place.
 */
function sqliteMmapDefault(processes: number): number {
  return processes > 1 ? 0 : DB_DEFAULTS.sqliteMmapMb;
}

/** A number of processes, or `auto`: one per core this process may use. */
function webConcurrency(raw: string | undefined): number {
  if (raw === undefined || raw === '') return 1;
  if (raw === 'auto') return os.availableParallelism();
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > 1024)
    throw new ConfigError(`WEB_CONCURRENCY must be auto or an integer from 1 to 1024, got ${JSON.stringify(raw)}`);
  return value;
}

/** DATA_DIR's default: `data` in the package root (the installation), whatever the current directory. */
export const DEFAULT_DATA_DIR = path.join(PACKAGE_ROOT, 'data');

/** The embedded database's file, in DATA_DIR. */
export function sqliteFile(config: Pick<Config, 'dataDir'>): string {
  return path.join(config.dataDir, 'trustgate.sqlite');
}

/**
 * The database a process uses, for its logs and the CLI's stderr: `sqlite <file>`, or
 * `postgresql <user>@<host>:<port>/<database>` (never the password or the URL's options).
 */
export function databaseLocation(config: Pick<Config, 'dataDir' | 'databaseUrl'>): string {
  if (!config.databaseUrl) return `sqlite ${sqliteFile(config)}`;
  let url: URL;
  try {
    url = new URL(config.databaseUrl);
  } catch {
    return 'postgresql (DATABASE_URL is not a URL; the driver reads it its own way)';
  }
  const user = url.username ? `${decodeURIComponent(url.username)}@` : '';
  const host = url.hostname || url.searchParams.get('host') || 'localhost';
  const database = decodeURIComponent(url.pathname.replace(/^\//, ''));
  return `postgresql ${user}${host}:${url.port || '5432'}/${database}`;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const nodeEnv = env.NODE_ENV ?? 'development';
  const databaseUrl = env.DATABASE_URL || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must be a postgres:// URL; leave it unset for the embedded SQLite database');
  }
  const secretKey = env.TRUSTGATE_SECRET_KEY || undefined;
  if (secretKey && Buffer.from(secretKey, 'base64').length !== 32) {
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
    rateLimitPerMinute: integer(env, 'RATE_LIMIT_PER_MINUTE', 300, 1, 1_000_000),
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
    validateResponses: flag(env, 'VALIDATE_RESPONSES', nodeEnv !== 'production'),
    logLevel: env.LOG_LEVEL || (nodeEnv === 'test' ? 'silent' : 'info'),
    trustProxy: trustProxy(env.TRUST_PROXY),
    bodyLimit: env.BODY_LIMIT || '1mb',
    evaluationConcurrency: integer(env, 'EVALUATION_CONCURRENCY', 64, 1, 10_000),
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
