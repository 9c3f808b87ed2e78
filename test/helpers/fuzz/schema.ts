/**
 * The contract as the fuzz suite reads it: the operations of openapi.yaml (read synchronously,
 * so that Jest can make a test per operation), and each operation's inputs from the bundled
 * spec with `$ref`s resolved and `allOf`s merged, so that the sampler and the mutations see one
 * plain schema per position.
 */
import fs from 'node:fs';
import YAML from 'yaml';
import { OPENAPI_PATH } from '../../../src/spec';
import type { Json, Spec } from '../spec';

export type Schema = { [keyword: string]: unknown } & {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  additionalProperties?: boolean | Schema;
  unevaluatedProperties?: boolean | Schema;
  oneOf?: Schema[];
  anyOf?: Schema[];
  allOf?: Schema[];
  enum?: Json[];
  const?: Json;
  pattern?: string;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  maxProperties?: number;
  $ref?: string;
};

export const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;
export type Method = (typeof METHODS)[number];

export interface OperationRef {
  operationId: string;
  method: Method;
  /** The spec's path, `/account/{account_id}`. */
  path: string;
}

/** Every operation of openapi.yaml, in the file's order. */
export function listOperations(file = OPENAPI_PATH): OperationRef[] {
  const doc = YAML.parse(fs.readFileSync(file, 'utf8')) as {
    paths: Record<string, Record<string, { operationId?: string }>>;
  };
  const out: OperationRef[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (op) out.push({ operationId: op.operationId ?? `${method} ${path}`, method, path });
    }
  }
  return out;
}

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  schema: Schema;
  /** JSON pointer of the parameter's schema in the bundled spec. */
  pointer: string;
}

export interface RequestBody {
  required: boolean;
  /** Media type → schema, and the schema's JSON pointer in the bundled spec. */
  media: { type: string; schema: Schema; pointer: string }[];
}

export interface Operation extends OperationRef {
  parameters: Parameter[];
  body?: RequestBody;
  /** Whether the operation needs the API key (the spec's `security`, or the global one). */
  secured: boolean;
  /** The statuses the spec declares. */
  statuses: number[];
}

const escapePointer = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

/** The node at a JSON pointer of the bundled spec (`/components/schemas/Text`). */
export function at(spec: Spec, pointer: string): Json {
  return pointer
    .split('/')
    .slice(1)
    .reduce<Json>(
      // The spec's references resolve (the spec is linted).
      (node, seg) => (node as Record<string, Json>)[seg.replace(/~1/g, '/').replace(/~0/g, '~')]!,
      spec as Json,
    );
}

/** Follows `$ref`s; a `$ref`'s sibling keywords (OpenAPI 3.1) apply on top of what it names. */
function followRefs(spec: Spec, node: Json): Record<string, Json> {
  let current = node as Record<string, Json>;
  let siblings: Record<string, Json> = {};
  while (current && typeof current.$ref === 'string') {
    const { $ref, ...rest } = current;
    siblings = { ...rest, ...siblings };
    current = at(spec, ($ref as string).replace(/^#/, '')) as Record<string, Json>;
  }
  return { ...current, ...siblings };
}

/** Two schemas that must both hold, as one (enough for the spec's uses of allOf and $ref siblings). */
function merge(a: Schema, b: Schema): Schema {
  const out: Schema = { ...a, ...b };
  if (a.properties || b.properties) out.properties = { ...a.properties, ...b.properties };
  if (a.required || b.required) out.required = [...new Set([...(a.required ?? []), ...(b.required ?? [])])];
  if (a.type && b.type) {
    const left = [a.type].flat();
    out.type = [b.type].flat().filter((t) => left.includes(t) || (t === 'integer' && left.includes('number')));
    if ((out.type as string[]).length === 1) out.type = (out.type as string[])[0];
  }
  return out;
}

/** Where a schema that contains itself is cut (see flatten). */
const CUT: Schema = { 'x-cut': true } as Schema;
const isCut = (schema: unknown) => schema === CUT;

/**
 * The schema with `$ref`s resolved and `allOf`s merged, all the way down. A schema that contains
 * itself (the rules' conditions: `all` holds conditions) is followed twice, so that the samples
 * nest it once; inside the second, the members that would hold it again are left out.
 */
export function flatten(spec: Spec, node: Json, depth = 0, within: readonly string[] = []): Schema {
  if (depth > 40) throw new Error('schema nests deeper than 40 levels');
  const ref =
    node && typeof node === 'object' && !Array.isArray(node) ? (node as Record<string, Json>).$ref : undefined;
  if (typeof ref === 'string') {
    if (within.filter((r) => r === ref).length >= 2) return CUT;
    within = [...within, ref];
  }
  const raw = followRefs(spec, node) as Schema;
  let schema: Schema = { ...raw };
  delete schema.allOf;
  for (const part of raw.allOf ?? []) {
    const flat = flatten(spec, part as Json, depth + 1, within);
    if (isCut(flat)) return CUT;
    schema = merge(schema, flat);
  }
  if (schema.properties) {
    const kept = Object.entries(schema.properties)
      .map(([k, v]) => [k, flatten(spec, v as Json, depth + 1, within)] as const)
      .filter(([, v]) => !isCut(v));
    const names = new Set(kept.map(([k]) => k));
    if (schema.required?.some((k) => !names.has(k))) return CUT;
    schema.properties = Object.fromEntries(kept);
  }
  if (schema.items) {
    schema.items = flatten(spec, schema.items as Json, depth + 1, within);
    if (isCut(schema.items)) return CUT;
  }
  if (schema.additionalProperties && typeof schema.additionalProperties === 'object') {
    schema.additionalProperties = flatten(spec, schema.additionalProperties as Json, depth + 1, within);
    if (isCut(schema.additionalProperties)) return CUT;
  }
  for (const key of ['oneOf', 'anyOf'] as const) {
    if (!schema[key]) continue;
    const branches = (schema[key] as Schema[])
      .map((b) => flatten(spec, b as Json, depth + 1, within))
      .filter((b) => !isCut(b));
    if (!branches.length) return CUT;
    schema[key] = branches;
  }
  return schema;
}

/** An operation's inputs and declared statuses, from the bundled spec. */
export function describeOperation(spec: Spec, ref: OperationRef): Operation {
  const itemPointer = `/paths/${escapePointer(ref.path)}`;
  const item = at(spec, itemPointer) as Record<string, Json>;
  const op = item[ref.method] as Record<string, Json>;
  const parameters: Parameter[] = [];
  const fromList = (list: Json | undefined, listPointer: string) =>
    ((list as Json[] | undefined) ?? []).forEach((p, i) => {
      let pointer = `${listPointer}/${i}`;
      let param = p as Record<string, Json>;
      if (typeof param.$ref === 'string') {
        pointer = (param.$ref as string).replace(/^#/, '');
        param = at(spec, pointer) as Record<string, Json>;
      }
      const found = parameters.findIndex((q) => q.name === param.name && q.in === param.in);
      const entry: Parameter = {
        name: param.name as string,
        in: param.in as Parameter['in'],
        required: Boolean(param.required),
        schema: flatten(spec, param.schema as Json),
        pointer: `${pointer}/schema`,
      };
      if (found >= 0) parameters[found] = entry;
      else parameters.push(entry);
    });
  fromList(item.parameters, `${itemPointer}/parameters`);
  fromList(op.parameters, `${itemPointer}/${ref.method}/parameters`);
  let body: RequestBody | undefined;
  const requestBody = op.requestBody as Record<string, Json> | undefined;
  if (requestBody) {
    const content = requestBody.content as Record<string, { schema: Json }>;
    body = {
      required: Boolean(requestBody.required),
      media: Object.entries(content).map(([type, media]) => ({
        type,
        schema: flatten(spec, media.schema),
        pointer: `${itemPointer}/${ref.method}/requestBody/content/${escapePointer(type)}/schema`,
      })),
    };
  }
  const security = (op.security ?? spec.security) as Json[];
  return {
    ...ref,
    parameters,
    body,
    secured: Array.isArray(security) && security.length > 0,
    statuses: Object.keys(op.responses as Record<string, Json>).map(Number),
  };
}

/** The operation a request reaches (Express's matching: case-insensitive, a trailing slash allowed), if any. */
export function operationAt(operations: Operation[], method: string, rawPath: string): Operation | undefined {
  const pathOnly = rawPath.split('?')[0]!; // a split has at least one piece
  const matches = operations.filter((op) => {
    if (op.method !== method.toLowerCase()) return false;
    const source = op.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+');
    return new RegExp(`^${source}/?$`, 'i').test(pathOnly);
  });
  // A literal path wins over a templated one (`/liveness/session` over `/liveness/{session_id}`).
  return matches.sort((a, b) => (a.path.match(/\{/g)?.length ?? 0) - (b.path.match(/\{/g)?.length ?? 0))[0];
}
