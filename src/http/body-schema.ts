/**
 * What the contract says a request's body should have been, for the error messages that tell a
 * caller what to send instead: the media types an operation takes (a 415), and the properties
 * an object of its body takes (an unknown property, with the nearest known name). The
 * validator's errors name what was wrong but not what is expected, so the expectation is read
 * here from the bundled contract, by the operation the validator matched.
 */
import type { Request } from 'express';
import { bundledSpec } from '../spec';

type Schema = {
  $ref?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
};

interface Operation {
  requestBody?: { content?: Record<string, { schema?: Schema }> };
}

/** What the validator records on a request it matched to an operation. */
type MatchedRequest = Request & { openapi?: { openApiRoute?: string } };

/** The contract's operation for the request, when the validator matched one. */
function operationOf(req: Request): Operation | undefined {
  const route = (req as MatchedRequest).openapi?.openApiRoute;
  if (!route) return undefined;
  return bundledSpec().paths[route]?.[req.method.toLowerCase()] as Operation | undefined;
}

/** The media types the request's operation takes as its body (`application/json`, or images). */
export function bodyMediaTypes(req: Request): string[] {
  return Object.keys(operationOf(req)?.requestBody?.content ?? {});
}

function resolve(schema: Schema): Schema {
  let s = schema;
  for (let hops = 0; s.$ref && hops < 32; hops++) {
    const found = s.$ref
      .replace(/^#\//, '')
      .split('/')
      .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], bundledSpec());
    if (!found) return {};
    s = found as Schema;
  }
  return s;
}

/** The schema and the schemas it is composed of (allOf, oneOf, anyOf), each resolved. */
function branches(schema: Schema): Schema[] {
  const s = resolve(schema);
  const parts = [...(s.allOf ?? []), ...(s.oneOf ?? []), ...(s.anyOf ?? [])];
  return [s, ...parts.flatMap(branches)];
}

/** The schema at `path` below `schema` (property names; array indexes step into `items`). */
function schemaAt(schema: Schema, path: readonly string[]): Schema | undefined {
  let at: Schema[] = [schema];
  for (const key of path) {
    at = at.flatMap(branches).flatMap((s) => {
      if (/^\d+$/.test(key) && s.items) return [s.items];
      const p = s.properties?.[key];
      return p ? [p] : [];
    });
    if (at.length === 0) return undefined;
  }
  return { anyOf: at };
}

/**
 * The property names the object at `path` of the JSON body takes (`[]` for the body itself,
 * `['account']` for its `account`); undefined when the contract does not say.
 */
export function knownProperties(req: Request, path: readonly string[]): string[] | undefined {
  const schema = operationOf(req)?.requestBody?.content?.['application/json']?.schema;
  const at = schema && schemaAt(schema, path);
  if (!at) return undefined;
  const names = new Set(branches(at).flatMap((s) => Object.keys(s.properties ?? {})));
  return names.size > 0 ? [...names] : undefined;
}

/** Levenshtein distance: the edits that turn `a` into `b`. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++)
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * The known name a caller most likely meant by `name`: one that holds it as a word
 * (`description` for `list_description`), or one a few edits away (`emial` for `email`).
 */
export function nearestName(name: string, known: readonly string[]): string | undefined {
  const lower = name.toLowerCase();
  const words = known.filter((k) => k.split('_').includes(lower) || lower.split('_').includes(k));
  if (words.length === 1) return words[0];
  const limit = Math.max(2, Math.floor(lower.length / 3));
  const scored = known.map((k) => ({ k, d: distance(lower, k.toLowerCase()) })).filter(({ d }) => d <= limit);
  scored.sort((a, b) => a.d - b.d);
  return scored[0] && scored[0].d < (scored[1]?.d ?? Infinity) ? scored[0].k : undefined;
}
