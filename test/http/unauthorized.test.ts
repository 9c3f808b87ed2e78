/**
 * The spec's 401 examples are what the server answers: every operation the API key secures that
 * declares a 401 is called without a key and with a key that is no project's, through the real
 * app, and each answer must equal one of the `Unauthorized` response's examples, both examples
 * being used. (`/metrics` has a token of its own: test/telemetry.)
 */
import request from 'supertest';
import { makeTestContext, type TestContext } from '../helpers/app';
import { loadSpec, type Json } from '../helpers/spec';

type Obj = Record<string, Json>;

let ctx: TestContext;
beforeAll(async () => {
  ctx = await makeTestContext();
});
afterAll(() => ctx.close());

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

/** Every operation secured by the API key (its own security or the spec's) with a 401 response, its path parameters filled with a well-formed id. */
async function operationsWith401(): Promise<{ method: string; path: string }[]> {
  const spec = await loadSpec();
  const byApiKey = (op: Obj) =>
    ((op.security ?? spec.security) as Obj[] | undefined)?.some((requirement) => 'ApiKeyAuth' in requirement) ?? false;
  return Object.entries(spec.paths as Obj).flatMap(([specPath, item]) =>
    Object.entries(item as Obj)
      .filter(
        ([method, op]) => METHODS.includes(method) && '401' in ((op as Obj).responses as Obj) && byApiKey(op as Obj),
      )
      .map(([method]) => ({ method, path: specPath.replace(/\{[^}]+\}/g, '7b1c3a9e-2f4d-4c1b-9a8e-5d6f7a8b9c0d') })),
  );
}

test("when an operation that declares 401 is called without x-api-key or with an unknown key, then the answer is the spec's example for that case", async () => {
  const spec = await loadSpec();
  const unauthorized = ((spec.components as Obj).responses as Obj).Unauthorized as Obj;
  const examples = ((unauthorized.content as Obj)['application/json'] as Obj).examples as Record<
    string,
    { value: Json }
  >;
  const operations = await operationsWith401();
  expect(operations.length).toBeGreaterThan(10);

  const cases = { missing: undefined, unknown: 'tg_0000000000000000000000000000000000000000' } as const;
  expect(Object.keys(examples).sort()).toEqual(Object.keys(cases).sort());
  for (const [name, key] of Object.entries(cases)) {
    for (const op of operations) {
      let call = request(ctx.app)[op.method as 'get'](op.path);
      if (key) call = call.set('x-api-key', key);
      const res = await call;
      expect({ operation: `${op.method} ${op.path}`, body: res.body }).toEqual({
        operation: `${op.method} ${op.path}`,
        body: examples[name]!.value,
      });
    }
  }
});
