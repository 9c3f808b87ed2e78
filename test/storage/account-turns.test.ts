/**
 * Authenticates of one account on several processes of one PostgreSQL database take turns
 * (storage/postgres/account-locks.ts): each process queues its own, and one that lost the race
 * to another process runs again holding the account, so none runs out of attempts. Three apps
 * over one database, each with its own services (and so its own queue), stand for three nodes
 * here; test/nodes/storm.test.ts runs three real server processes.
 */
import request from 'supertest';
import { createApp } from '../../src/app';
import { makeServices } from '../../src/composition';
import { makeTestContext, type TestContext } from '../helpers/app';
import { personSession, scenario } from '../helpers/evaluation';

const onPostgres = process.env.DATABASE_URL ? describe : describe.skip;

onPostgres('authenticates of one account on three processes', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await makeTestContext();
  });
  afterAll(() => ctx.close());

  test('when 60 arrive at once, spread over them, then every one is 200 and the account counts every session', async () => {
    const nodes = [
      ctx,
      ...[1, 2].map(() => ({
        ...ctx,
        app: createApp({ config: ctx.config, services: makeServices(ctx.deps), contract: ctx.contract }),
      })),
    ];
    const id = 'stormed';
    const sessions = await Promise.all(Array.from({ length: 60 }, () => scenario(ctx).ingest(personSession())));
    const answers = await Promise.all(sessions.map((s, i) => scenario(nodes[i % 3]!).authenticate(s, { id })));
    expect(answers.map((a) => a.status)).toEqual(sessions.map(() => 200));
    const account = await request(ctx.app).get(`/account/${id}`).set('x-api-key', ctx.project.api_key).expect(200);
    expect(account.body.num_sessions).toBe(60);
  }, 60_000);
});
