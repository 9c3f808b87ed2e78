/**
 * A change to a project reaches another process's key cache through PostgreSQL: this test's
 * services listen as a server's do (composition/listener.ts), and the change is made by
 * `trustgate project rotate-key` in a process of its own, or by another services instance on
 * the same database (another server: a key cache of its own). The fixed clock never moves, so
 * no entry here can expire: only the notification can drop it. PostgreSQL only: on SQLite
 * other processes' changes show after the TTL (test/processes.test.ts).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { makeServices } from '../../src/composition';
import { listenForChanges } from '../../src/composition/listener';
import { LISTENER_NAME } from '../../src/storage/postgres/listener';
import { makeTestContext, type TestContext } from '../helpers/app';
import { compileSources, databaseEnv, killAll, runCli } from '../helpers/processes';

const until = async (ok: () => boolean) => {
  while (!ok()) await new Promise((r) => setTimeout(r, 10));
};

(process.env.DATABASE_URL ? describe : describe.skip)('a change made by another process', () => {
  let ctx: TestContext;
  let dataDir: string;
  const stop = new AbortController();
  let listening: Promise<void>;
  const connections = () => ctx.logs.filter((l) => l.msg === 'listening for notifications').length;

  beforeAll(async () => {
    compileSources();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tg-listener-'));
    ctx = await makeTestContext();
    const { projects } = ctx.services;
    listening = listenForChanges(
      { wake: ctx.services.jobs.dispatch.wake, projects },
      { connectionString: ctx.testDb.url!, logger: ctx.logger, firstRetryMs: 10 },
      stop.signal,
    );
    await until(() => connections() === 1);
  }, 120_000);
  afterAll(async () => {
    stop.abort();
    await listening;
    await ctx?.close();
    killAll();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /** The key's project as this process holds it now (the cache alone), or as it reads it. */
  const held = (apiKey: string) => ctx.services.projects.knownKey(apiKey);
  const read = async (apiKey: string) => (await ctx.services.projects.authenticate(apiKey))?.project;

  test('when `trustgate project rotate-key` runs in its own process, then this process drops the old key: refused, and the new one works', async () => {
    const { api_key: oldKey, project_id: projectId } = ctx.project;
    expect((await read(oldKey))?.id).toBe(projectId);
    expect(held(oldKey)).toBe(true);

    const rotated = await runCli(
      ['project', 'rotate-key', projectId, '--json'],
      databaseEnv(ctx.testDb, dataDir, randomBytes(32)),
    );
    expect(rotated.code).toBe(0);
    const newKey = (JSON.parse(rotated.stdout) as { api_key: string }).api_key;

    await until(() => !held(oldKey));
    expect(await read(oldKey)).toBeUndefined();
    expect((await read(newKey))?.id).toBe(projectId);
  }, 60_000);

  test('when another server changes the threshold, then the rules, then this process reads each from its next lookup', async () => {
    const other = makeServices({ ...ctx.deps });
    const mine = await ctx.services.projects.create({ name: 'Changed elsewhere' });
    const bystander = await ctx.services.projects.create({ name: 'Unchanged' });
    expect((await read(mine.api_key))?.decisionThreshold).toBe(0.8);
    expect(await read(bystander.api_key)).toBeDefined();

    await other.projects.update(mine.project_id, { decisionThreshold: 0.55 }, 'cli');
    await until(() => !held(mine.api_key));
    expect((await read(mine.api_key))?.decisionThreshold).toBe(0.55);

    const rules = [{ id: 'every-session', when: { field: 'bot', op: 'gte', value: 0 }, then: { tags: ['seen'] } }];
    await other.rules.replace(mine.project_id, { rules }, 'cli');
    await until(() => !held(mine.api_key));
    expect((await read(mine.api_key))?.rules).toMatchObject({ version: 1 });
    // Only the changed project was dropped.
    expect(held(bystander.api_key)).toBe(true);
  });

  test('when the listener loses its connection, then on connecting again it drops every project (a change may have been missed)', async () => {
    const project = await ctx.services.projects.create({ name: 'Held across a reconnection' });
    await read(project.api_key);
    expect(held(project.api_key)).toBe(true);
    const killed = await ctx.testDb.db.raw(
      'SELECT pg_terminate_backend(pid) AS killed FROM pg_stat_activity WHERE application_name = ? AND datname = current_database()',
      [LISTENER_NAME],
    );
    expect(killed.rows).toEqual([{ killed: true }]);
    await until(() => connections() === 2);
    expect(held(project.api_key)).toBe(false);
  });
});
