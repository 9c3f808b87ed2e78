/**
 * Prometheus metrics (GET /metrics): one registry per `makeMetrics()`, passed to what records
 * into it (no module-level registry: every test builds its own). The hot path only increments
 * children created ahead (the operations of the contract, the decisions, the signals, the
 * scores): a request costs a few map look-ups, never a statement. What the database knows (the
 * outbox's depth) and what other parts hold (the IP data's age, the connection pool) is read
 * when Prometheus scrapes, by the gauges' `collect`.
 *
 * Families (prefix `trustgate_`), and what each is for, are listed in docs/deploy.md.
 */
import type { Knex } from 'knex';
import cluster from 'node:cluster';
import { AggregatorRegistry, collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Decision, RiskSignals } from '../api-types';
import { SIGNALS } from '../domain/signals';
import { RETENTION_KINDS, type RetentionKind } from '../domain/retention';
import type { NetworkDataStatus } from '../geo/data-age';

/** The evaluations, by what asked for them. `get`: GET /session/{id} (signals recomputed, no decision). */
export type EvaluationKind = 'authenticate' | 'unauthenticated' | 'get';

/** What an evaluation recorded: its decision and scores (absent for `get`), its signals and conditions. */
export interface EvaluationRecord {
  decision?: Decision;
  scores?: { account_score: number; bot: number; multiple_accounts: number; risk_signals: number };
  /** The signals' booleans (GET /session/{id}'s have no ip_reputation). */
  risk_signals: RiskSignals;
  risk_signal_details: { network: readonly string[]; device: readonly string[] };
}

/** A webhook attempt's outcome: delivered, to be retried, or failed for good. */
export type DeliveryOutcome = 'delivered' | 'retry' | 'failed';

export interface WebhookMetrics {
  /** One delivery attempt: its outcome, its number (1 = first) and how long it took. */
  attempted(outcome: DeliveryOutcome, attempt: number, seconds: number): void;
}

export interface AnalysisMetrics {
  analysed(type: 'face-match' | 'id-check', result: 'ok' | 'error', seconds: number): void;
}

export interface RetentionMetrics {
  /** Rows (or files) a retention batch removed, by kind (domain/retention.ts). */
  removed(kind: RetentionKind, n: number): void;
}

export interface HttpMetrics {
  /** One answered request: its operationId (`unknown` outside the contract), status and time. */
  answered(operation: string, status: number, seconds: number): void;
}

export interface EvaluationMetrics {
  evaluated(kind: EvaluationKind, record: EvaluationRecord): void;
}

/** The sources read at scrape time (composition.ts gives them once the services exist). */
export interface MetricSources {
  /** Webhooks waiting to be delivered (one count statement, at each scrape). */
  outboxDepth?: () => Promise<number>;
  networkData?: NetworkDataStatus;
  now: () => Date;
  /** The connection pool (knex's tarn pool): connections in use, idle, and acquisitions waiting. */
  pool?: () => { used: number; free: number; pending: number };
}

export interface Metrics {
  registry: Registry;
  http: HttpMetrics;
  evaluations: EvaluationMetrics;
  webhooks: WebhookMetrics;
  analysis: AnalysisMetrics;
  retention: RetentionMetrics;
  /** Gives the gauges read at scrape time their sources (again: replaces them). */
  watch(sources: MetricSources): void;
  /** The text exposition and its content type. */
  scrape(): Promise<{ contentType: string; body: string }>;
}

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const SCORE_BUCKETS = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1];
const ATTEMPT_BUCKETS = [1, 2, 3, 4, 5, 6, 8, 10, 15, 20];
const ANALYSIS_BUCKETS = [0.1, 0.25, 0.5, 1, 2, 4, 8, 16, 32];
const SCORES = ['account_score', 'bot', 'multiple_accounts', 'risk_signals'] as const;
const KINDS: readonly EvaluationKind[] = ['authenticate', 'unauthenticated', 'get'];
const DECISIONS: readonly Decision[] = ['Real', 'Fake'];
/** The signals' names (each one's booleans in risk_signals). */
const SIGNAL_NAMES = [...SIGNALS.map((s) => s.name), 'spoofed_ip'];
/** Condition names are codes (`tor_exit_node`); anything else is counted as `other`. */
const CONDITION = /^[a-z][a-z0-9_]{0,63}$/;
/**
 * Distinct conditions counted per evaluation kind; past it, new ones are counted as `other`.
 * Device conditions include names the SDK reports (automation signals, tampering), which a
 * client chooses: without a bound, a client could make the registry grow without end.
 */
export const MAX_CONDITIONS = 200;

/**
 * A child per key, made on first use. With `limit`, at most that many: a key past it gets
 * `overflow(key)`'s child (label values from a set a client could grow stay bounded).
 */
function children<T>(
  make: (key: string) => T,
  limit = Infinity,
  overflow?: (key: string) => string,
): (key: string) => T {
  const made = new Map<string, T>();
  const child = (key: string): T => {
    let found = made.get(key);
    if (found === undefined) {
      if (made.size >= limit && overflow && overflow(key) !== key) return child(overflow(key));
      found = make(key);
      made.set(key, found);
    }
    return found;
  };
  return child;
}

/** HTTP requests by operation and status; the contract's `operations` have their children made ahead. */
function httpMetrics(registry: Registry, operations: readonly string[]): HttpMetrics {
  const requests = new Histogram({
    name: 'trustgate_http_request_duration_seconds',
    help:
      'HTTP requests by operation (operationId; unknown outside the contract or when refused before routing, ' +
      'as by a rate limit) and status, and how long they took.',
    labelNames: ['operation', 'status'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const byOperation = children((operation) => children((status) => requests.labels(operation, status)));
  for (const operation of operations) requests.zero({ operation, status: '200' });
  return {
    answered(operation, status, seconds) {
      byOperation(operation)(String(status)).observe(seconds);
    },
  };
}

/** Evaluations by kind and decision, the signals and conditions they raised, and their scores. */
function evaluationMetrics(registry: Registry): EvaluationMetrics {
  const evaluations = new Counter({
    name: 'trustgate_evaluations_total',
    help: 'Evaluations by kind (authenticate, unauthenticated, get) and decision (none for get).',
    labelNames: ['kind', 'decision'] as const,
    registers: [registry],
  });
  const signals = new Counter({
    name: 'trustgate_signals_raised_total',
    help: 'Risk signals raised, by evaluation kind and signal (divide by trustgate_evaluations_total for the raise rate).',
    labelNames: ['kind', 'signal'] as const,
    registers: [registry],
  });
  const conditions = new Counter({
    name: 'trustgate_conditions_raised_total',
    help: 'Conditions detected (risk_signal_details), by evaluation kind, source (network, device) and condition.',
    labelNames: ['kind', 'source', 'condition'] as const,
    registers: [registry],
  });
  const scores = new Histogram({
    name: 'trustgate_score',
    help: 'Score distributions (account_score, bot, multiple_accounts, risk_signals) of authenticate and unauthenticated.',
    labelNames: ['kind', 'score'] as const,
    buckets: SCORE_BUCKETS,
    registers: [registry],
  });
  const byKind = new Map(
    KINDS.map((kind) => [
      kind,
      {
        decision: children((decision) => evaluations.labels(kind, decision)),
        signal: children((signal) => signals.labels(kind, signal)),
        condition: children(
          (key) => {
            const [source, condition] = key.split('\u0000') as [string, string];
            return conditions.labels(kind, source, condition);
          },
          MAX_CONDITIONS,
          (key) => `${key.slice(0, key.indexOf('\u0000'))}\u0000other`,
        ),
        scores: SCORES.map((score) => scores.labels(kind, score)),
      },
    ]),
  );
  // Zeros ahead, so that a rate has a series before its first event.
  for (const kind of KINDS) {
    for (const decision of kind === 'get' ? ['none'] : DECISIONS) evaluations.inc({ kind, decision }, 0);
    for (const signal of SIGNAL_NAMES) signals.inc({ kind, signal }, 0);
    if (kind !== 'get') for (const score of SCORES) scores.zero({ kind, score });
  }
  return {
    evaluated(kind, record) {
      const c = byKind.get(kind)!;
      c.decision(record.decision ?? 'none').inc();
      for (const signal in record.risk_signals) {
        if (record.risk_signals[signal as keyof RiskSignals]) c.signal(signal).inc();
      }
      for (const source of ['network', 'device'] as const) {
        for (const condition of record.risk_signal_details[source]) {
          c.condition(`${source}\u0000${CONDITION.test(condition) ? condition : 'other'}`).inc();
        }
      }
      if (record.scores) for (let i = 0; i < SCORES.length; i++) c.scores[i]!.observe(record.scores[SCORES[i]!]);
    },
  };
}

/** Webhook attempts by outcome, how long each took, and how many a settled webhook took. */
function webhookMetrics(registry: Registry): WebhookMetrics {
  const deliveries = new Counter({
    name: 'trustgate_webhook_deliveries_total',
    help: 'Webhook delivery attempts by outcome (delivered, retry, failed).',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const attempts = new Histogram({
    name: 'trustgate_webhook_delivery_attempts',
    help: 'How many attempts a webhook took, observed when it is settled for good (delivered or failed).',
    labelNames: ['outcome'] as const,
    buckets: ATTEMPT_BUCKETS,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'trustgate_webhook_delivery_seconds',
    help: "How long each webhook attempt took (the receiver's answer, or the error), by outcome.",
    labelNames: ['outcome'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  return {
    attempted(outcome, attempt, seconds) {
      deliveries.labels(outcome).inc();
      latency.labels(outcome).observe(seconds);
      if (outcome !== 'retry') attempts.labels(outcome).observe(attempt);
    },
  };
}

function analysisMetrics(registry: Registry): AnalysisMetrics {
  const analysis = new Histogram({
    name: 'trustgate_analysis_duration_seconds',
    help: 'Face and document analyses (the local engine), by verification type and result.',
    labelNames: ['type', 'result'] as const,
    buckets: ANALYSIS_BUCKETS,
    registers: [registry],
  });
  return {
    analysed(type, result, seconds) {
      analysis.labels(type, result).observe(seconds);
    },
  };
}

function retentionMetrics(registry: Registry): RetentionMetrics {
  const retained = new Counter({
    name: 'trustgate_retention_removed_total',
    help:
      'What the retention passes removed, by kind: ' +
      'sessions, accounts (left without sessions), verification_media, media_files, delivered_webhooks.',
    labelNames: ['kind'] as const,
    registers: [registry],
  });
  for (const kind of RETENTION_KINDS) retained.inc({ kind }, 0);
  return {
    removed(kind, n) {
      retained.inc({ kind }, n);
    },
  };
}

/**
 * A registry with Trustgate's families and Node's default ones (event-loop delay, heap, GC,
 * CPU). `operations`: the contract's operationIds, whose children are made ahead.
 */
export function makeMetrics(
  options: {
    operations?: readonly string[];
    defaults?: boolean;
    /**
     * A cluster's worker (WEB_CONCURRENCY above 1): a scrape answers every worker's metrics,
     * summed by the primary (servePrimaryMetrics).
     */
    clusterWorker?: boolean;
  } = {},
): Metrics {
  const registry = new Registry();
  const scrapeHere = async () => ({ contentType: registry.contentType, body: await registry.metrics() });
  const scrape = options.clusterWorker ? scrapeThroughPrimary(registry) : scrapeHere;
  if (options.defaults ?? true) collectDefaultMetrics({ register: registry });
  let sources: MetricSources | undefined;
  return {
    registry,
    http: httpMetrics(registry, options.operations ?? []),
    evaluations: evaluationMetrics(registry),
    webhooks: webhookMetrics(registry),
    analysis: analysisMetrics(registry),
    retention: retentionMetrics(registry),
    watch(given) {
      if (!sources) watchSources(registry, () => sources!);
      sources = given;
    },
    scrape,
  };
}

const DAY_S = 86_400;

function watchSources(registry: Registry, current: () => MetricSources): void {
  new Gauge({
    name: 'trustgate_webhook_outbox_depth',
    help: 'Webhooks waiting to be delivered (pending, including those waiting for a retry).',
    registers: [registry],
    aggregator: 'max',
    async collect() {
      const depth = current().outboxDepth;
      if (depth) this.set(await depth());
    },
  });
  new Gauge({
    name: 'trustgate_ip_data_age_seconds',
    help: 'How old each IP database (city, ASN) is, from its build date.',
    labelNames: ['database', 'source'] as const,
    registers: [registry],
    aggregator: 'max',
    collect() {
      this.reset();
      const { networkData, now } = current();
      for (const g of networkData?.health(now()).geo ?? []) {
        if (g.age_days !== null) this.labels(g.database, g.source).set(g.age_days * DAY_S);
      }
    },
  });
  const listHealth = () => {
    const { networkData, now } = current();
    return networkData?.health(now()).ip_lists ?? [];
  };
  new Gauge({
    name: 'trustgate_ip_list_age_seconds',
    help: 'How long ago each IP list was synced (lists never synced have no sample).',
    labelNames: ['list'] as const,
    registers: [registry],
    aggregator: 'max',
    collect() {
      this.reset();
      for (const l of listHealth()) if (l.age_days !== null) this.labels(l.list).set(l.age_days * DAY_S);
    },
  });
  new Gauge({
    name: 'trustgate_ip_list_entries',
    help: 'Entries of each IP list (shipped, operator and synced).',
    labelNames: ['list'] as const,
    registers: [registry],
    aggregator: 'max',
    collect() {
      this.reset();
      for (const l of listHealth()) this.labels(l.list).set(l.entries);
    },
  });
  const fileHealth = () => {
    const { networkData, now } = current();
    return networkData?.health(now()).files ?? [];
  };
  new Gauge({
    name: 'trustgate_data_file_info',
    help: 'The SHA-256 of each IP data file loaded (city, asn, hosting_asns); always 1.',
    labelNames: ['file', 'sha256'] as const,
    registers: [registry],
    aggregator: 'max',
    collect() {
      this.reset();
      for (const f of fileHealth()) this.labels(f.file, f.sha256).set(1);
    },
  });
  new Gauge({
    name: 'trustgate_data_file_differing_nodes',
    help: 'Other nodes of the PostgreSQL database, seen lately, that loaded a different IP data file.',
    labelNames: ['file'] as const,
    registers: [registry],
    aggregator: 'max',
    collect() {
      this.reset();
      for (const f of fileHealth()) this.labels(f.file).set(f.differing_nodes.length);
    },
  });
  new Gauge({
    name: 'trustgate_db_pool_connections',
    help: 'Database connections of this process: in use, idle, and acquisitions waiting for one.',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const pool = current().pool;
      if (!pool) return;
      const p = pool();
      this.labels('used').set(p.used);
      this.labels('free').set(p.free);
      this.labels('pending').set(p.pending);
    },
  });
}

/** The database's connection pool as MetricSources.pool reads it (knex's tarn pool; absent before its first connection). */
export function knexPool(db: Knex): () => { used: number; free: number; pending: number } {
  return () => {
    const pool = (db.client as { pool?: { numUsed(): number; numFree(): number; numPendingAcquires(): number } }).pool;
    return pool
      ? { used: pool.numUsed(), free: pool.numFree(), pending: pool.numPendingAcquires() }
      : { used: 0, free: 0, pending: 0 };
  };
}

/**
 * A cluster (WEB_CONCURRENCY above 1): a scrape reaches whichever worker the connection lands
 * on, which asks the primary; the primary asks every worker for its registry (prom-client's
 * AggregatorRegistry) and answers the sum (counters and histograms summed; the gauges of the
 * database and the data, the same in every worker, by their maximum).
 */
const SCRAPE_REQUEST = 'trustgate:metrics-request';
const SCRAPE_ANSWER = 'trustgate:metrics-answer';
/** Longer than AggregatorRegistry's own 5 s wait for the workers. */
const SCRAPE_TIMEOUT_MS = 10_000;

interface ScrapeAnswer {
  type: typeof SCRAPE_ANSWER;
  id: number;
  contentType?: string;
  body?: string;
  error?: string;
}

/** The primary's side: answers the workers' scrapes with every worker's metrics. Once per primary. */
export function servePrimaryMetrics(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on('message', (worker, message: { type?: string; id?: number }) => {
    if (message?.type !== SCRAPE_REQUEST) return;
    const answer = (a: Omit<ScrapeAnswer, 'type' | 'id'>) => {
      if (worker.isConnected()) worker.send({ type: SCRAPE_ANSWER, id: message.id, ...a });
    };
    aggregator.clusterMetrics().then(
      (body) => answer({ contentType: aggregator.contentType, body }),
      (err: Error) => answer({ error: err.message }),
    );
  });
}

/** The worker's side: its registry answers the primary's requests; its scrapes ask the primary. */
function scrapeThroughPrimary(registry: Registry): Metrics['scrape'] {
  // prom-client answers the primary's requests (from its AggregatorRegistry) once one exists here.
  new AggregatorRegistry();
  AggregatorRegistry.setRegistries([registry]);
  const waiting = new Map<number, (answer: ScrapeAnswer) => void>();
  let next = 0;
  process.on('message', (message: ScrapeAnswer) => {
    if (message?.type === SCRAPE_ANSWER) waiting.get(message.id)?.(message);
  });
  return () =>
    new Promise((resolve, reject) => {
      const id = next++;
      const timer = setTimeout(
        () => settle({ type: SCRAPE_ANSWER, id, error: 'the primary did not answer' }),
        SCRAPE_TIMEOUT_MS,
      );
      function settle(answer: ScrapeAnswer) {
        clearTimeout(timer);
        waiting.delete(id);
        if (answer.body !== undefined && answer.contentType)
          resolve({ contentType: answer.contentType, body: answer.body });
        else reject(new Error(`metrics of the cluster: ${answer.error ?? 'no answer'}`));
      }
      waiting.set(id, settle);
      process.send!({ type: SCRAPE_REQUEST, id });
    });
}
