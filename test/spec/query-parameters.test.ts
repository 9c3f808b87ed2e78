/**
 * What express-openapi-validator does with a query value depends on the parameter's schema: when
 * the schema (its own `$ref` resolved) names another schema (a `$ref`, `allOf`, `oneOf` or
 * `anyOf` anywhere in it), the validator reads the value as JSON before checking it, so
 * `device_id="device-3"` searched device-3 and `1e3` searched 1000 (search.test.ts). Text's rule is
 * spelled out in such parameters instead (openapi.yaml, at Text).
 */
import { at, describeOperation, listOperations } from '../helpers/fuzz/schema';
import { loadSpec, type Json } from '../helpers/spec';

/** The keys under `node` (at any depth) that name another schema. */
function naming(node: Json): string[] {
  if (Array.isArray(node)) return node.flatMap(naming);
  if (typeof node !== 'object' || node === null) return [];
  return Object.entries(node).flatMap(([k, v]) => [
    ...(['$ref', 'allOf', 'oneOf', 'anyOf'].includes(k) ? [k] : []),
    ...naming(v),
  ]);
}

test('when a query parameter is declared, then its schema names no other schema (a value is never read as JSON)', async () => {
  const spec = await loadSpec();
  const found: string[] = [];
  let queries = 0;
  for (const ref of listOperations()) {
    for (const parameter of describeOperation(spec, ref).parameters) {
      if (parameter.in !== 'query') continue;
      queries++;
      // As the validator takes it: the schema's own `$ref` followed once.
      const own = at(spec, parameter.pointer) as { $ref?: string };
      const schema = typeof own.$ref === 'string' ? at(spec, own.$ref.replace(/^#/, '')) : (own as Json);
      const names = naming(schema);
      if (names.length) found.push(`${ref.method.toUpperCase()} ${ref.path} ${parameter.name}: ${names.join(', ')}`);
    }
  }
  expect(queries).toBeGreaterThan(20);
  expect(found).toEqual([]);
});
