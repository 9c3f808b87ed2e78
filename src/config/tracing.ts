/** Tracing settings from the OpenTelemetry SDK's standard OTEL_* variables. */
import { ConfigError, flag, oneOf } from './env';

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
export function tracingConfig(env: NodeJS.ProcessEnv): TracingConfig | undefined {
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
