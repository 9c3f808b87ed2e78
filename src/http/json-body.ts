/**
 * JSON bodies are read on the routes whose operation takes one, from the contract, and nowhere
 * else: a body sent to an operation that takes none (a GET, a DELETE, `POST /list/{name}/account/{id}`) is
 * not read, so it can never be what an answer is about (a 413, a 400 for bad JSON). Where the
 * contract requires a body, an empty one is refused (body-parser reads it as `{}`). A new
 * operation is covered by its declaration in openapi.yaml.
 */
import express, { type Request, type RequestHandler } from 'express';
import { BadRequestError } from '../errors';
import { bundledSpec, type BundledSpec } from '../spec';
import { checkJsonDepth } from './limits';

export type BodyMethod = 'post' | 'put' | 'patch' | 'delete';
const METHODS: readonly BodyMethod[] = ['post', 'put', 'patch', 'delete'];

/** Express's spelling of an OpenAPI path: `/account/{account_id}` → `/account/:account_id`. */
export const expressPath = (openApiPath: string): string => openApiPath.replace(/\{([^}]+)\}/g, ':$1');

export interface JsonBodyRoute {
  method: BodyMethod;
  path: string;
  required: boolean;
}

export function jsonBodyRoutes(spec: BundledSpec = bundledSpec()): JsonBodyRoute[] {
  const routes: JsonBodyRoute[] = [];
  for (const [path, item] of Object.entries(spec.paths)) {
    for (const method of METHODS) {
      const body = (
        item[method] as { requestBody?: { required?: boolean; content?: Record<string, unknown> } } | undefined
      )?.requestBody;
      if (body?.content?.['application/json'])
        routes.push({ method, path: expressPath(path), required: Boolean(body.required) });
    }
  }
  return routes;
}

const bodyBytes = new WeakMap<Request, number>();

/** Refuses a body nested deeper than JSON_MAX_DEPTH (src/http/limits.ts) before the validator walks it. */
export const notTooDeep: RequestHandler = (req, _res, next) => {
  checkJsonDepth(req.body);
  next();
};

/**
 * Each JSON route with what reads its body: express.json, the depth check, and for a required
 * body the check that it is not empty.
 */
export function jsonBodyParsers(limit: string): (JsonBodyRoute & { handlers: RequestHandler[] })[] {
  const json = express.json({ limit, verify: (req, _res, buf) => void bodyBytes.set(req as Request, buf.length) });
  const notEmpty: RequestHandler = (req, _res, next) =>
    next(bodyBytes.get(req) === 0 ? new BadRequestError('body is required') : undefined);
  return jsonBodyRoutes().map((route) => ({
    ...route,
    handlers: route.required ? [json, notTooDeep, notEmpty] : [json, notTooDeep],
  }));
}
