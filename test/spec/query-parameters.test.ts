/**
 * What express-openapi-validator does with a query value depends on the parameter's schema: when
 * the schema (its own `$ref` resolved) names another schema (a `$ref`, `allOf`, `oneOf` or
 * `anyOf` anywhere in it), the validator reads the value as JSON before checking it, so
 * `device_id="device-3"` searched device-3 and `1e3` searched 1000 (search.test.ts). Text's rule is
 * spelled out in such parameters instead (openapi.yaml, at Text).
 */
import { loadSpec, type Json, type Spec } from '../helpers/spec';

type Node = { [k: string]: Json };
const isNode = (v: Json | undefined): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);

function at(spec: Spec, ref: string): Node {
  const found = ref
    .replace(/^#\//, '')
    .split('/')
    .reduce<Json | undefined>((node, key) => (isNode(node) ? node[key] : undefined), spec as Json);
  if (!isNode(found)) throw new Error(`no ${ref} in the spec`);
  return found;
}

const resolved = (spec: Spec, node: Node): Node => (typeof node.$ref === 'string' ? at(spec, node.$ref) : node);

/** The keys under `node` (at any depth) that name another schema. */
function naming(node: Json): string[] {
  if (Array.isArray(node)) return node.flatMap(naming);
  if (!isNode(node)) return [];
  return Object.entries(node).flatMap(([k, v]) => [
    ...(['$ref', 'allOf', 'oneOf', 'anyOf'].includes(k) ? [k] : []),
    ...naming(v),
  ]);
}

test('when a query parameter is declared, then its schema names no other schema (a value is never read as JSON)', async () => {
  const spec = await loadSpec();
  const found: string[] = [];
  let queries = 0;
  for (const [path, item] of Object.entries(at(spec, '#/paths'))) {
    if (!isNode(item)) continue;
    for (const [method, op] of Object.entries(item)) {
      if (!isNode(op)) continue;
      const parameters = [item.parameters, op.parameters].flatMap((p) => (Array.isArray(p) ? p : []));
      for (const raw of parameters) {
        if (!isNode(raw)) continue;
        const parameter = resolved(spec, raw);
        if (parameter.in !== 'query' || !isNode(parameter.schema)) continue;
        queries++;
        const names = naming(resolved(spec, parameter.schema));
        if (names.length) found.push(`${method.toUpperCase()} ${path} ${String(parameter.name)}: ${names.join(', ')}`);
      }
    }
  }
  expect(queries).toBeGreaterThan(20);
  expect(found).toEqual([]);
});
