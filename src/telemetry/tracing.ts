/**
 * OpenTelemetry tracing, opt-in (config.ts: the SDK's OTEL_* variables). Spans: the HTTP request
 * (a server span named by the operationId, continuing an inbound W3C `traceparent`), the
 * evaluation's stages (gather, evaluate, persist) and every database statement (its
 * parameterised text: never the bound values).
 *
 * `makeTracing` builds its own tracer provider and keeps the current span in an
 * AsyncLocalStorage of its own: nothing is registered globally, so two apps in one process
 * (the tests) trace apart. Off, `NO_TRACING` runs the given function and nothing else.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import {
  defaultTextMapGetter,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BasicTracerProvider,
  BatchSpanProcessor,
  ConsoleSpanExporter,
  ParentBasedSampler,
  SimpleSpanProcessor,
  TraceIdRatioBasedSampler,
  type Sampler,
  type SpanExporter,
} from '@opentelemetry/sdk-trace-base';
import type { Knex } from 'knex';
import type { TracingConfig } from '../config';

export interface Tracing {
  readonly enabled: boolean;
  /** Runs `fn` in a child span of the current one (ended when `fn` returns or its promise settles). */
  span<T>(name: string, fn: () => T, attributes?: Attributes): T;
  /**
   * Starts the server span of a request, continuing `headers`' traceparent; `run` goes on inside
   * it. The span ends with `end`.
   */
  request(
    headers: Record<string, string | string[] | undefined>,
    attributes: Attributes,
    run: () => void,
  ): { end(name: string, attributes: Attributes, failed: boolean): void };
  /** A span for each statement `db` runs (its `query` events), child of the current span. */
  watchDb(db: Knex): void;
  /** Exports what is pending and stops. */
  shutdown(): Promise<void>;
}

const ended = { end() {} };

/** Tracing off: the functions run, nothing is recorded. */
export const NO_TRACING: Tracing = {
  enabled: false,
  span: (_name, fn) => fn(),
  request(_headers, _attributes, run) {
    run();
    return ended;
  },
  watchDb() {},
  shutdown: async () => {},
};

function samplerOf(config: Pick<TracingConfig, 'sampler' | 'samplerRatio'>): Sampler {
  switch (config.sampler) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return new TraceIdRatioBasedSampler(config.samplerRatio);
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(config.samplerRatio) });
    default:
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
  }
}

const isThenable = (v: unknown): v is PromiseLike<unknown> =>
  typeof v === 'object' && v !== null && typeof (v as { then?: unknown }).then === 'function';

function failed(span: Span, err: unknown): void {
  span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.name : 'error' });
}

/** What the spans of one Tracing are made with: its tracer, and the current span's context. */
interface Spans {
  tracer: Tracer;
  current: AsyncLocalStorage<Context>;
}

/** Tracing.span: `fn` in a child span of the current one, ended when it returns or its promise settles. */
function inSpan<T>({ tracer, current }: Spans, name: string, fn: () => T, attributes?: Attributes): T {
  const parent = current.getStore() ?? ROOT_CONTEXT;
  const span = tracer.startSpan(name, { attributes }, parent);
  let result;
  try {
    result = current.run(trace.setSpan(parent, span), fn);
  } catch (err) {
    failed(span, err);
    span.end();
    throw err;
  }
  if (!isThenable(result)) {
    span.end();
    return result;
  }
  return Promise.resolve(result).then(
    (value) => {
      span.end();
      return value;
    },
    (err: unknown) => {
      failed(span, err);
      span.end();
      throw err;
    },
  ) as unknown as T;
}

/** Tracing.request: the server span of a request, continuing its traceparent. */
function requestSpan(
  { tracer, current }: Spans,
  propagator: W3CTraceContextPropagator,
  headers: Record<string, string | string[] | undefined>,
  attributes: Attributes,
  run: () => void,
): ReturnType<Tracing['request']> {
  const parent = propagator.extract(ROOT_CONTEXT, headers, defaultTextMapGetter);
  const span = tracer.startSpan('HTTP', { kind: SpanKind.SERVER, attributes }, parent);
  current.run(trace.setSpan(parent, span), run);
  let done = false;
  return {
    end(name, endAttributes, error) {
      if (done) return;
      done = true;
      span.updateName(name);
      span.setAttributes(endAttributes);
      if (error) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    },
  };
}

/** A statement as knex announces it (the SQLite thread's: once it ran, with its thread and time). */
interface QueryEvent {
  __knexQueryUid?: string;
  sql: string;
  method?: string;
  thread?: string;
  ms?: number;
}

/** Tracing.watchDb: a client span per statement `db` runs inside a span (each database once: makeTracing). */
function watchStatements({ tracer, current }: Spans, db: Knex): void {
  const system = db.client.config.client === 'pg' ? 'postgresql' : 'sqlite';
  const open = new Map<string, Span>();
  const attributesOf = (q: { sql: string; method?: string }): Attributes => ({
    'db.system.name': system,
    'db.operation.name': q.method ?? 'raw',
    // The text with its placeholders; the bound values are never recorded.
    'db.query.text': q.sql,
  });
  db.on('query', (q: QueryEvent) => {
    const parent = current.getStore();
    // Statements outside a request or a traced job (the dispatcher's polls) are not traced.
    if (!parent) return;
    const name = `db ${q.method ?? 'raw'}`;
    if (q.thread !== undefined) {
      // The SQLite thread's statements are announced once they ran, with their time (storage/db.ts).
      const endAt = Date.now();
      const attributes = { ...attributesOf(q), 'trustgate.db.thread': q.thread };
      const span = tracer.startSpan(
        name,
        { kind: SpanKind.CLIENT, attributes, startTime: endAt - (q.ms ?? 0) },
        parent,
      );
      span.end(endAt);
      return;
    }
    if (!q.__knexQueryUid) return;
    open.set(q.__knexQueryUid, tracer.startSpan(name, { kind: SpanKind.CLIENT, attributes: attributesOf(q) }, parent));
  });
  const finish = (q: { __knexQueryUid?: string } | undefined, err?: unknown) => {
    const span = q?.__knexQueryUid ? open.get(q.__knexQueryUid) : undefined;
    if (!span) return;
    open.delete(q!.__knexQueryUid!);
    if (err) failed(span, err);
    span.end();
  };
  db.on('query-response', (_response: unknown, q: { __knexQueryUid?: string }) => finish(q));
  db.on('query-error', (err: unknown, q: { __knexQueryUid?: string }) => finish(q, err));
}

/**
 * Tracing from its settings. `exporter` replaces the configured one (tests); `batch: false`
 * exports each span as it ends rather than in batches.
 */
export function makeTracing(
  config: TracingConfig,
  options: { exporter?: SpanExporter; batch?: boolean; version?: string } = {},
): Tracing {
  const exporter =
    options.exporter ??
    (config.exporter === 'console'
      ? new ConsoleSpanExporter()
      : new OTLPTraceExporter({ url: config.endpoint, headers: config.headers }));
  const processor = options.batch === false ? new SimpleSpanProcessor(exporter) : new BatchSpanProcessor(exporter);
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ ...config.resourceAttributes, 'service.name': config.serviceName }),
    sampler: samplerOf(config),
    spanProcessors: [processor],
  });
  const spans: Spans = { tracer: provider.getTracer('trustgate', options.version), current: new AsyncLocalStorage() };
  const propagator = new W3CTraceContextPropagator();
  /** The databases watched already (services built twice on one database trace each statement once). */
  const watched = new WeakSet<Knex>();

  return {
    enabled: true,
    span: (name, fn, attributes) => inSpan(spans, name, fn, attributes),
    request: (headers, attributes, run) => requestSpan(spans, propagator, headers, attributes, run),
    watchDb(db) {
      if (watched.has(db)) return;
      watched.add(db);
      watchStatements(spans, db);
    },
    async shutdown() {
      await provider.shutdown();
    },
  };
}
