/**
 * The HTTP edge of the telemetry: each request's metrics and server span, and GET /metrics.
 */
import type { Request, RequestHandler, Response } from 'express';
import type { ErrorBody } from '../api-types';
import { constantTimeEqual } from '../security/secrets';
import type { Metrics } from './metrics';
import type { Tracing } from './tracing';

/** What the validator (express-openapi-validator) attaches to a request of the contract. */
interface RoutedRequest extends Request {
  openapi?: { openApiRoute?: string; schema?: { operationId?: string } };
}

/** The operationId of a request the contract declares; `unknown` for any other (bounded labels). */
export function operationOf(req: Request): string {
  return (req as RoutedRequest).openapi?.schema?.operationId ?? 'unknown';
}

/**
 * Times each request into the metrics and wraps it in a server span. Undefined when both are off
 * (nothing is mounted).
 */
export function makeHttpTelemetry(metrics: Metrics | undefined, tracing: Tracing): RequestHandler | undefined {
  if (!metrics && !tracing.enabled) return undefined;
  const http = metrics?.http;
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    const span = tracing.enabled
      ? tracing.request(
          req.headers,
          { 'http.request.method': req.method, 'url.scheme': req.protocol, 'trustgate.request_id': req.requestId },
          next,
        )
      : undefined;
    let answered = false;
    const done = () => {
      if (answered) return;
      answered = true;
      const operation = operationOf(req);
      http?.answered(operation, res.statusCode, Number(process.hrtime.bigint() - started) / 1e9);
      if (span) {
        const route = (req as RoutedRequest).openapi?.openApiRoute;
        span.end(
          operation,
          {
            'http.response.status_code': res.statusCode,
            'trustgate.operation': operation,
            ...(route ? { 'http.route': route } : {}),
          },
          res.statusCode >= 500,
        );
      }
    };
    res.once('finish', done);
    if (span) res.once('close', done);
    if (!span) next();
  };
}

/**
 * GET /metrics: the Prometheus text exposition. With a token, only `Authorization: Bearer
 * <token>` (compared in constant time); otherwise 401 in the error shape.
 */
export function makeMetricsHandler(metrics: Metrics, token: string | undefined) {
  return async (req: Request, res: Response<string | ErrorBody>) => {
    if (token !== undefined) {
      const given = /^Bearer ([^\s]+)$/i.exec(req.get('authorization') ?? '')?.[1];
      if (given === undefined || !constantTimeEqual(given, token)) {
        res.setHeader('www-authenticate', 'Bearer realm="metrics"');
        res.status(401).json({ statusCode: 401, message: 'GET /metrics needs Authorization: Bearer <METRICS_TOKEN>' });
        return;
      }
    }
    const { contentType, body } = await metrics.scrape();
    res.setHeader('content-type', contentType);
    res.send(body);
  };
}
