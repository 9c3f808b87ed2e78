/**
 * The routes whose operation takes a JSON body, from the contract. JSON is read on these
 * alone: a body sent to an operation that takes none (a GET, a DELETE, `POST /list/{name}`) is
 * not read, so it can never be what an answer is about (a 413, a 400 for bad JSON), and a new
 * operation with a body is covered by its declaration in openapi.yaml.
 */
import { bundledSpec, type BundledSpec } from '../spec';

export type BodyMethod = 'post' | 'put' | 'patch' | 'delete';
const METHODS: readonly BodyMethod[] = ['post', 'put', 'patch', 'delete'];

/** Express's spelling of an OpenAPI path: `/account/{account_id}` → `/account/:account_id`. */
export const expressPath = (openApiPath: string): string => openApiPath.replace(/\{([^}]+)\}/g, ':$1');

export function jsonBodyRoutes(spec: BundledSpec = bundledSpec()): { method: BodyMethod; path: string }[] {
  const routes: { method: BodyMethod; path: string }[] = [];
  for (const [path, item] of Object.entries(spec.paths)) {
    for (const method of METHODS) {
      const operation = item[method] as { requestBody?: { content?: Record<string, unknown> } } | undefined;
      if (operation?.requestBody?.content?.['application/json']) routes.push({ method, path: expressPath(path) });
    }
  }
  return routes;
}
