/**
 * The edge dependencies: everything the use cases reach outside pure code (the database, the
 * clock, the secret box, the IP data, …). Tests and benchmarks give their own (EdgeDeps, the
 * rest defaulted by withDefaults); makeRuntime opens the real ones from the configuration
 * (composition/open.ts).
 */
import { systemClock, systemRandom, type Clock, type Random } from '../clock';
import type { IpIntelligence } from '../domain/enrichment/session';
import type { AnalysisEngine } from '../domain/verification/analysis';
import type { NetworkDataStatus } from '../geo/data-age';
import { makeLogger, type Logger } from '../logger';
import type { OidcSignIn } from '../security/oidc';
import type { SecretBox } from '../security/secrets';
import type { Db } from '../storage/db';
import type { MediaStore } from '../storage/media';
import type { Metrics } from '../telemetry/metrics';
import { NO_TRACING, type Tracing } from '../telemetry/tracing';
import type { IpListLookup } from '../usecases/evaluation';
import type { BacktestSettings } from '../usecases/rules';

export interface CoreDeps {
  db: Db;
  clock: Clock;
  random: Random;
  logger: Logger;
  secretBox: SecretBox;
  ipIntelligence: IpIntelligence;
  /** The Tor, VPN, proxy, datacenter and fraud address lists (src/geo/ip-lists.ts). */
  ipLists: IpListLookup;
  /** How old the IP data and lists are (GET /healthz); absent in a process that loads neither. */
  networkData?: NetworkDataStatus;
  /** The data folder; on SQLite captured images go to `<dataDir>/media` unless `media` is given (on PostgreSQL, to the database). */
  dataDir?: string;
  /** Where captured images are kept (encrypted); without it: the database on PostgreSQL, `<dataDir>/media` on SQLite, else 503. */
  media?: MediaStore;
  /** Face and document analysis; without it, one that answers 503 (analysis/unavailable.ts). Never a fake outside tests. */
  analysis?: AnalysisEngine;
  /** How long an API key's project is kept in memory (config apiKeyCacheTtlMs); absent: not kept. */
  apiKeyCacheTtlMs?: number;
  /** How long a console session lasts at most, and without a request (config); absent: the defaults of usecases/operators.ts. */
  consoleSessionTtlMs?: number;
  consoleSessionIdleMs?: number;
  /**
   * The origin (and path prefix) of every absolute URL the service makes (config
   * publicBaseUrl; a function because with PORT=0 the listen address is known only once
   * listening). Absent: making such a URL fails (a process that makes none, like the CLI).
   */
  publicBaseUrl?: () => string;
  /** Prometheus metrics (GET /metrics); absent: none recorded, no /metrics. */
  metrics?: Metrics;
  /** OpenTelemetry tracing; absent: off (telemetry/tracing.ts NO_TRACING). */
  tracing?: Tracing;
  /** The console's OpenID Connect provider (config oidc, security/oidc.ts); absent: sign-in with a password only. */
  oidc?: OidcSignIn;
  /** How many backtests run at once and what one may take (config backtest); absent: the defaults of config/backtest.ts. */
  backtest?: Partial<BacktestSettings>;
}

/**
 * What `makeServices` needs: the database and the secret box; the rest defaults to the system's
 * clock and randomness, a silent logger, no IP data (every address unknown) and empty IP lists.
 */
export type EdgeDeps = Pick<CoreDeps, 'db' | 'secretBox'> & Partial<CoreDeps>;

/** No IP data: every address is unknown (tests and benchmarks that enrich nothing). */
export const NO_IP_DATA: IpIntelligence = { lookup: () => ({}) };
/** No IP lists: no address is on one. */
export const NO_IP_LISTS: IpListLookup = { lookup: () => [] };

/** For commands that never enrich a session (the CLI): loading the IP data would only cost time. */
export const ipDataNotLoaded: IpIntelligence = {
  lookup() {
    throw new Error('IP data is not loaded in this process');
  },
};

/** The edges given, the rest defaulted (see EdgeDeps). */
export function withDefaults(edges: EdgeDeps): CoreDeps {
  return {
    clock: systemClock,
    random: systemRandom,
    logger: makeLogger('silent'),
    ipIntelligence: NO_IP_DATA,
    ipLists: NO_IP_LISTS,
    tracing: NO_TRACING,
    ...edges,
  };
}
