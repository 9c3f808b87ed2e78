/** GET /readyz: ready once the migrations are applied, the IP data loaded and the models loaded; not ready once stopping. */
import request from 'supertest';
import type { Readiness } from '../../src/api-types';
import { migrate } from '../../src/storage/db';
import { migrationSource } from '../../src/storage/migrations';
import { makeTestContext, type TestContext } from '../helpers/app';
import { slowFakeAnalysisEngine } from '../helpers/fake-analysis';

const readyz = async (ctx: TestContext) => {
  const res = await request(ctx.app).get('/readyz');
  return { status: res.status, body: res.body as Readiness };
};

describe('GET /readyz', () => {
  let ctx: TestContext | undefined;
  afterEach(async () => {
    await ctx?.close();
    ctx = undefined;
  });

  it('when the analysis models are still loading, then 503 naming them, and 200 once they are loaded', async () => {
    const slow = slowFakeAnalysisEngine();
    ctx = await makeTestContext({}, { analysis: slow.engine });
    const notYet = {
      status: 503,
      body: {
        status: 'not_ready',
        checks: { migrations: 'applied', ip_data: 'loaded', models: 'loading', stopping: false },
      },
    };
    expect(await readyz(ctx)).toEqual(notYet);
    const warming = ctx.services.warmUp();
    expect(await readyz(ctx)).toEqual(notYet);
    slow.loaded();
    await warming;
    expect(await readyz(ctx)).toEqual({
      status: 200,
      body: {
        status: 'ready',
        checks: { migrations: 'applied', ip_data: 'loaded', models: 'loaded', stopping: false },
      },
    });
  });

  it('when the models cannot be loaded, then 503 with models failed', async () => {
    const slow = slowFakeAnalysisEngine();
    ctx = await makeTestContext({}, { analysis: slow.engine });
    const warming = ctx.services.warmUp();
    slow.failed('no model files');
    await expect(warming).rejects.toThrow('no model files');
    expect(await readyz(ctx)).toMatchObject({
      status: 503,
      body: { status: 'not_ready', checks: { models: 'failed' } },
    });
  });

  it('when the analysis engine is off, then the models are not waited for: 200 with models off', async () => {
    ctx = await makeTestContext();
    expect(await readyz(ctx)).toEqual({
      status: 200,
      body: { status: 'ready', checks: { migrations: 'applied', ip_data: 'loaded', models: 'off', stopping: false } },
    });
  });

  it('when a migration is not applied, then 503 with migrations pending, and 200 once it is', async () => {
    ctx = await makeTestContext();
    await ctx.testDb.db.migrate.down({ migrationSource });
    expect(await readyz(ctx)).toMatchObject({ status: 503, body: { checks: { migrations: 'pending' } } });
    await migrate(ctx.testDb.db);
    expect(await readyz(ctx)).toMatchObject({ status: 200, body: { checks: { migrations: 'applied' } } });
  });

  it('when the process is stopping, then 503 with stopping true, while /healthz still answers 200', async () => {
    ctx = await makeTestContext();
    ctx.services.readiness.stopping();
    expect(await readyz(ctx)).toMatchObject({ status: 503, body: { status: 'not_ready', checks: { stopping: true } } });
    expect((await request(ctx.app).get('/healthz')).status).toBe(200);
  });
});
