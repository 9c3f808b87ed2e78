/**
 * JSON bodies are read only where openapi.yaml declares one: a body sent to an operation that
 * takes none is not read, so it is never what the answer is about. Through the real app and
 * database, for every such operation of the spec.
 */
import request from 'supertest';
import { expressPath, jsonBodyRoutes } from '../../src/http/json-body';
import { makeTestContext, type TestContext } from '../helpers/app';
import { declaredStatuses, loadSpec } from '../helpers/spec';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await makeTestContext();
});
afterAll(() => ctx.close());

type Method = 'get' | 'post' | 'put' | 'delete';

/** Every operation of the spec without a request body, with its path's parameters filled in. */
async function bodilessOperations(): Promise<{ method: Method; specPath: string; url: string }[]> {
  const spec = await loadSpec();
  const out: { method: Method; specPath: string; url: string }[] = [];
  for (const [specPath, item] of Object.entries(
    spec.paths as Record<string, Record<string, { requestBody?: unknown }>>,
  )) {
    for (const method of ['get', 'post', 'put', 'delete'] as const) {
      if (item[method] && !item[method].requestBody)
        out.push({ method, specPath, url: specPath.replace(/\{[^}]+\}/g, 'x') });
    }
  }
  return out;
}

describe('JSON request bodies', () => {
  it('when the routes that read JSON are listed, then they are the operations whose body openapi.yaml declares as JSON', async () => {
    const spec = await loadSpec();
    const declared = Object.entries(
      spec.paths as Record<string, Record<string, { requestBody?: { content: Record<string, unknown> } }>>,
    ).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([, op]) => op.requestBody?.content['application/json'])
        .map(([method]) => `${method} ${expressPath(path)}`),
    );
    expect(declared.length).toBeGreaterThan(5);
    expect(
      jsonBodyRoutes()
        .map((r) => `${r.method} ${r.path}`)
        .sort(),
    ).toEqual(declared.sort());
  });

  it('when a 2 MB JSON body, or one that is not JSON, is sent to an operation that takes no body, then it is not read: no 413, no 400 about it, and the answer is one the spec declares', async () => {
    const operations = await bodilessOperations();
    expect(operations.length).toBeGreaterThanOrEqual(13);
    const large = JSON.stringify({ blob: 'x'.repeat(2_000_000) });
    for (const op of operations) {
      const declared = await declaredStatuses(op.method, op.specPath);
      for (const body of [large, '{"not json']) {
        const res = await request(ctx.app)
          [op.method](op.url)
          .set('x-api-key', ctx.project.api_key)
          .set('content-type', 'application/json')
          .send(body);
        const where = `${op.method.toUpperCase()} ${op.url} with ${body.length} bytes: ${res.status} ${JSON.stringify(res.body)}`;
        expect([where, res.status === 413 || /JSON/.test(String(res.body.message))]).toEqual([where, false]);
        expect([where, declared.includes(res.status)]).toEqual([where, true]);
        // The verification operations' coded refusals (LivenessError) add the code clients branch on.
        const coded =
          res.body.error === undefined
            ? {}
            : { request_id: expect.any(String), success: false, error: expect.any(String) };
        if (res.status >= 400)
          expect(res.body).toEqual({ statusCode: res.status, message: expect.any(String), ...coded });
      }
    }
  });

  it('when an operation whose body is required gets an empty one, then 400 "body is required", and nothing is written', async () => {
    for (const [method, path] of [
      ['put', '/account/empty-body'],
      ['post', '/session/authenticate'],
      ['post', '/liveness/session'],
    ] as const) {
      const res = await request(ctx.app)
        [method](path)
        .set('x-api-key', ctx.project.api_key)
        .set('content-type', 'application/json')
        .send('');
      expect(res.body).toEqual({ statusCode: 400, message: 'body is required' });
    }
    expect((await request(ctx.app).get('/account/empty-body').set('x-api-key', ctx.project.api_key)).body).toEqual({
      statusCode: 400,
      message: 'Account not found',
    });
    // `{}` is a body (judged by the contract: it lacks the account's id).
    expect(
      (await request(ctx.app).put('/account/empty-body').set('x-api-key', ctx.project.api_key).send({})).body,
    ).toEqual({ statusCode: 400, message: expect.stringContaining('id') });
  });

  it('when an operation that takes JSON gets a body over the limit, then still 413', async () => {
    const res = await request(ctx.app)
      .put('/account/x')
      .set('x-api-key', ctx.project.api_key)
      .set('content-type', 'application/json')
      .send(JSON.stringify({ blob: 'x'.repeat(2_000_000) }));
    expect(res.body).toEqual({ statusCode: 413, message: 'Request body is larger than the limit' });
  });
});
