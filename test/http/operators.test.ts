/**
 * GET /operators through HTTP with a real database: the project's console operators, disabled
 * ones included and marked, never another project's; readable with an API key and by any signed-in
 * operator. Response validation is on: each answer is checked against openapi.yaml by the server.
 */
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import type { ConsoleSession, Operators } from '../../src/api-types';
import { makeTestContext, type TestContext } from '../helpers/app';

const PASSWORD = 'a long enough password';
let ctx: TestContext;
beforeAll(async () => {
  ctx = await makeTestContext({ trustProxy: 'loopback' });
});
afterAll(() => ctx.close());

async function project() {
  const p = await ctx.services.projects.create({ name: `Operators ${randomUUID()}` });
  const add = (role: 'viewer' | 'analyst' | 'admin', email: string) =>
    ctx.services.operators.add({ projectId: p.project_id, email, role, password: PASSWORD });
  return { ...p, add };
}

test("when the project has operators, one disabled, then GET /operators lists them by email with their roles, the disabled one marked, and no other project's", async () => {
  const p = await project();
  const other = await project();
  const bea = await p.add('admin', `bea-${p.project_id}@example.com`);
  const ada = await p.add('analyst', `ada-${p.project_id}@example.com`);
  await other.add('admin', `cy-${other.project_id}@example.com`);
  expect(await ctx.services.operators.disable(bea.email)).toBe(true);

  const res = await request(ctx.app).get('/operators').set('x-api-key', p.api_key);
  expect(res.status).toBe(200);
  const body = res.body as Operators;
  expect(body.operators.map((o) => [o.id, o.email, o.role, o.disabled])).toEqual([
    [ada.id, ada.email, 'analyst', false],
    [bea.id, bea.email, 'admin', true],
  ]);
});

test('when a viewer signs in, then the console may read the operators too; without a credential, 401', async () => {
  const p = await project();
  const viewer = await p.add('viewer', `vi-${p.project_id}@example.com`);
  const login = await request(ctx.app)
    .post('/console/login')
    .set('x-forwarded-for', '90.1.2.9')
    .send({ email: viewer.email, password: PASSWORD });
  expect(login.status).toBe(200);
  const cookie = ([] as string[]).concat(login.headers['set-cookie'] ?? [])[0]!.split(';')[0]!;
  expect((login.body as ConsoleSession).operator.id).toBe(viewer.id);
  const res = await request(ctx.app).get('/operators').set('cookie', cookie);
  expect(res.status).toBe(200);
  expect((res.body as Operators).operators.map((o) => o.id)).toEqual([viewer.id]);
  expect((await request(ctx.app).get('/operators')).status).toBe(401);
});
