/**
 * The ApiKeyAuth handler and its key cache through the real app and database: a known key is
 * served from memory, unknown keys are never kept, and a key rotated by this process stops at
 * once. (Rotated by another process: test/processes.test.ts.)
 */
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { makeTestContext, type TestContext } from '../helpers/app';
import { statementsDuring } from '../helpers/db';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await makeTestContext();
});
afterAll(() => ctx.close());

/** The SQL of every statement sent while `call` runs. */
const statements = async (call: () => Promise<unknown>) =>
  (await statementsDuring(ctx.testDb.db, call)).map((s) => s.sql);

const keyTables = (sql: string) => /\b(api_keys|projects)\b/.test(sql);
const get = (apiKey: string) => request(ctx.app).get(`/session/${randomUUID()}`).set('x-api-key', apiKey);

describe('a known key', () => {
  test('when it was used a moment ago, then authenticating it again makes no database query', async () => {
    const p = await ctx.services.projects.create({ name: 'Cached' });
    expect((await statements(() => ctx.services.projects.authenticate(p.api_key))).filter(keyTables)).toHaveLength(2);
    expect(await statements(() => ctx.services.projects.authenticate(p.api_key))).toEqual([]);
    const served = await statements(async () => expect((await get(p.api_key)).status).toBe(400));
    expect(served.filter(keyTables)).toEqual([]);
  });

  test('when its entry has expired, then it is looked up again', async () => {
    const p = await ctx.services.projects.create({ name: 'Expiring' });
    await ctx.services.projects.authenticate(p.api_key);
    ctx.clock.advance(5_000);
    expect((await statements(() => ctx.services.projects.authenticate(p.api_key))).filter(keyTables)).toHaveLength(2);
  });

  test('when it is rotated by this process, then it is refused at once and the new key works', async () => {
    const p = await ctx.services.projects.create({ name: 'Rotated here' });
    expect((await get(p.api_key)).status).toBe(400);
    const { api_key } = await ctx.services.projects.rotateKey(p.project_id);
    expect((await get(p.api_key)).status).toBe(401);
    expect((await get(api_key)).status).toBe(400);
  });

  test('when its project’s webhook URL is set by this process, then the next request reads the project afresh', async () => {
    const p = await ctx.services.projects.create({ name: 'Re-pointed' });
    await ctx.services.projects.authenticate(p.api_key);
    await ctx.services.projects.setWebhook(p.project_id, 'https://hooks.example.com/tg');
    const holder = await ctx.services.projects.authenticate(p.api_key);
    expect(holder?.project.webhookUrl).toBe('https://hooks.example.com/tg');
  });
});

describe('an unknown key', () => {
  test('when it is sent again, then it is looked up again (misses are not kept)', async () => {
    const unknown = `tg_${randomUUID()}`;
    for (let i = 0; i < 2; i++) {
      const sent = await statements(async () => expect((await get(unknown)).status).toBe(401));
      expect(sent.filter(keyTables)).toHaveLength(1);
    }
  });
});
