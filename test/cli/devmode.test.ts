/**
 * The local development commands against a real database: `project create --test` and `project
 * list`, `project reset` (after a test project and a live project have both been used through
 * the real app: nothing of the reset project's data is left, nothing of the other's is touched),
 * and `webhooks test` against a real HTTP receiver on loopback (answered, refused by the target
 * policy, not acknowledged).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { cli } from '../../src/cli/main';
import { verifyWebhook } from '../../packages/client/src';
import type { ProjectCredentials } from '../../src/usecases/projects';
import { makeTestContext, type TestContext } from '../helpers/app';
import { personSession, scenario } from '../helpers/evaluation';
import { fakeImage } from '../helpers/fake-analysis';
import { storedMediaIds } from '../helpers/media';
import { webhookReceiver } from '../helpers/receiver';
import { validateWebhookBody } from '../helpers/spec';
import { deliverDue, verificationFlow } from '../helpers/verification';

let ctx: TestContext;
let env: NodeJS.ProcessEnv;
let cliData: string;

beforeAll(async () => {
  ctx = await makeTestContext({ trustProxy: 'loopback', demo: false }, { media: true });
  const { testDb } = ctx;
  if (testDb.sqliteFile) {
    // SQLite: the CLI opens DATA_DIR/trustgate.sqlite, the test's own file; its media folder is the app's.
    cliData = path.dirname(testDb.sqliteFile);
    fs.symlinkSync(path.join(ctx.dataDir!, 'media'), path.join(cliData, 'media'));
  } else cliData = ctx.dataDir!;
  // PostgreSQL: every node of the database is given the same key (none is made).
  const postgres = testDb.url
    ? { DATABASE_URL: testDb.url, TRUSTGATE_SECRET_KEY: randomBytes(32).toString('base64') }
    : {};
  env = { DATA_DIR: cliData, LOG_LEVEL: 'silent', ...postgres };
});
afterAll(() => ctx.close());

async function trustgate(args: string[], extraEnv: NodeJS.ProcessEnv = {}) {
  let stdout = '';
  let stderr = '';
  const code = await cli(args, {
    env: { ...env, ...extraEnv },
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
  });
  return { code, stdout, stderr };
}

describe('trustgate project create --test', () => {
  it('when a test project is created, then its key starts tg_test_ and project list marks it [test]', async () => {
    const created = await trustgate(['project', 'create', '--name', 'Dev', '--test', '--json']);
    expect(created.code).toBe(0);
    const p = JSON.parse(created.stdout) as ProjectCredentials;
    expect(p).toMatchObject({ name: 'Dev', test: true });
    expect(p.api_key).toMatch(/^tg_test_/);
    const list = await trustgate(['project', 'list']);
    const line = list.stdout.split('\n').find((l) => l.startsWith(p.project_id))!;
    expect(line).toContain('Dev [test]');
    expect(line).toContain(`keys: ${p.api_key.slice(0, 14)}…`);
    const live = list.stdout.split('\n').find((l) => l.startsWith(ctx.project.project_id))!;
    expect(live).not.toContain('[test]');
  });
});

/** Every row of every table of the database, by table. */
async function everything(): Promise<Record<string, Record<string, unknown>[]>> {
  const { db, dialect } = ctx.testDb;
  const tables: string[] =
    dialect === 'sqlite'
      ? (await db.raw("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")).map(
          (r: { name: string }) => r.name,
        )
      : (await db.raw("SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public'")).rows.map(
          (r: { name: string }) => r.name,
        );
  const out: Record<string, Record<string, unknown>[]> = {};
  for (const t of tables.sort()) {
    const rows = (await db(t).select()) as Record<string, unknown>[];
    out[t] = rows
      .map((r) => JSON.parse(JSON.stringify(r)))
      .sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
  }
  return out;
}

/** Sessions, accounts, links, lists, a failed and a successful verification with its captures and webhook attempts, in a project. */
async function use(project: ProjectCredentials, prefix: string): Promise<void> {
  const rx = await webhookReceiver();
  try {
    await ctx.services.projects.setWebhook(project.project_id, rx.url);
    const s = scenario(ctx, project.api_key, project.project_id);
    const device = { device_id: `${prefix}-device`, browser_fingerprint: `${prefix}-fp` };
    await s.signIn({ id: `${prefix}-a`, email: `a@${prefix}.example`, lists: ['block'] }, device, '81.2.69.142', true);
    await s.signIn({ id: `${prefix}-b`, email: `b@${prefix}.example` }, device, '81.2.69.142', true);
    await s.unauthenticated(await s.ingest(personSession(), '81.2.69.142'));
    const flow = verificationFlow({ ...ctx, project }, rx);
    const failed = await flow.create('face-match', { account_id: 'test_verification_face_match_failed' });
    await request(ctx.app).post(`/liveness/${failed.id}/complete`).query({ token: failed.token });
    if (!project.test) return; // a live project's verification would need the analysis engine
    const ok = await flow.create('id-check', { account_id: 'test_verification_success' });
    const image = fakeImage({});
    const done = await flow.complete(ok, { selfie: image, id_front: image, id_back: image }, { ip: '81.2.69.142' });
    if (done.status !== 200) throw new Error(`complete ${done.status}`);
  } finally {
    await deliverDue(ctx);
    await rx.close();
  }
}

describe('trustgate project reset', () => {
  it('when a test project is reset, then none of its data is left, its keys and lists stay, and another project is untouched', async () => {
    const test = await ctx.services.projects.create({ name: 'to reset', test: true });
    const other = await ctx.services.projects.create({ name: 'neighbour', test: true });
    await use(test, 'mine');
    await use(other, 'theirs');
    await use(ctx.project, 'live');
    // The evaluations' overview counts, as the server's flusher writes them (STATS_FLUSH_MS).
    await ctx.services.statsFlusher.flush();
    // The images kept: the files on SQLite, the media table's rows on PostgreSQL.
    const mediaFiles = () => storedMediaIds(ctx);
    const filesBefore = await mediaFiles();
    const before = await everything();

    const ids = {
      sessions: new Set(before.sessions!.filter((r) => r.project_id === test.project_id).map((r) => r.id)),
      verifications: new Set(
        before.verification_sessions!.filter((r) => r.project_id === test.project_id).map((r) => r.id),
      ),
      webhooks: new Set(before.webhooks!.filter((r) => r.project_id === test.project_id).map((r) => r.request_id)),
    };
    /** Whether a row is the reset project's: by its project_id, or by the session or webhook it belongs to. */
    const mine = (r: Record<string, unknown>) =>
      r.project_id === test.project_id ||
      ids.sessions.has(r.session_id) ||
      ids.verifications.has(r.session_id) ||
      ids.webhooks.has(r.request_id);
    // The project has data in every table of a project's data before the reset.
    // The audit of the project's settings is the project's, not gathered data: it stays too.
    const KEPT = ['projects', 'api_keys', 'lists', 'audit_events'];
    const withData = Object.keys(before).filter((t) => !KEPT.includes(t) && before[t]!.some(mine));
    expect(withData.sort()).toEqual(
      [
        'account_uniques',
        'accounts',
        'email_domains',
        'evaluation_counts',
        'identifier_accounts',
        'ingest_challenges',
        'list_members',
        'network_accounts',
        'session_accounts',
        'session_facts',
        'sessions',
        'verification_captures',
        'verification_documents',
        'verification_faces',
        'verification_sessions',
        'webhook_attempts',
        'webhooks',
      ].sort(),
    );
    const theirMedia = before.verification_captures!.filter((r) => !mine(r)).map((r) => String(r.media_id));
    const myMedia = before.verification_captures!.filter(mine).map((r) => String(r.media_id));
    expect(myMedia.length).toBeGreaterThan(0);
    expect(filesBefore).toEqual(expect.arrayContaining([...myMedia, ...theirMedia]));

    const reset = await trustgate(['project', 'reset', test.project_id]);
    expect(reset).toMatchObject({ code: 0, stderr: expect.stringMatching(/^database: (sqlite|postgresql) \S+\n$/) });
    expect(reset.stdout).toMatch(/reset \(test project\)/);
    expect(reset.stdout).toMatch(/sessions: 4 deleted/);

    const after = await everything();
    const expected = Object.fromEntries(
      Object.entries(before).map(([t, rows]) => [
        t,
        KEPT.includes(t) ? rows : rows.filter((r) => !mine(r) && !(t === 'media' && myMedia.includes(String(r.id)))),
      ]),
    );
    expect(after).toEqual(expected);
    expect(await mediaFiles()).toEqual(filesBefore.filter((f) => !myMedia.includes(f)));

    // The project still works, from nothing.
    const again = await scenario(ctx, test.api_key, test.project_id).signIn({ id: 'mine-a' }, {}, '81.2.69.142');
    expect(again.account.num_sessions).toBe(1);
    expect(again.lists).toEqual([]);
  });

  it('when a live project is reset without --yes-delete-live-data, then it is refused and nothing changes; with it, its data goes', async () => {
    const before = await everything();
    const refused = await trustgate(['project', 'reset', ctx.project.project_id]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/live project.*--yes-delete-live-data/);
    expect(await everything()).toEqual(before);

    const done = await trustgate(['project', 'reset', ctx.project.project_id, '--yes-delete-live-data', '--json']);
    expect(done.code).toBe(0);
    expect(JSON.parse(done.stdout)).toMatchObject({ project_id: ctx.project.project_id, test: false });
    expect(await ctx.testDb.db('sessions').where({ project_id: ctx.project.project_id })).toEqual([]);
  });

  it('when the project is unknown or not named, then exit 1 or usage', async () => {
    expect((await trustgate(['project', 'reset', '00000000-0000-4000-8000-000000000000'])).code).toBe(1);
    expect((await trustgate(['project', 'reset'])).code).toBe(2);
  });
});

describe('trustgate webhooks test', () => {
  it('when the project points at a loopback receiver, then the signed test event arrives only with WEBHOOK_ALLOW_PRIVATE, and the answer is printed', async () => {
    const created = JSON.parse(
      (await trustgate(['project', 'create', '--name', 'Hooks', '--test', '--json'])).stdout,
    ) as ProjectCredentials;
    const rx = await webhookReceiver([200]);
    try {
      expect((await trustgate(['project', 'set-webhook', created.project_id, rx.url])).code).toBe(0);

      const refused = await trustgate(['webhooks', 'test', created.project_id]);
      expect(refused.code).toBe(1);
      expect(refused.stdout).toMatch(/refused: 127\.0\.0\.1 is a private, loopback/);
      expect(refused.stderr).toMatch(/WEBHOOK_ALLOW_PRIVATE=1.*restart the server.*webhooks replay/);
      expect(rx.received).toHaveLength(0);

      const sent = await trustgate(['webhooks', 'test', created.project_id], { WEBHOOK_ALLOW_PRIVATE: '1' });
      expect(sent).toMatchObject({ code: 0, stderr: expect.stringMatching(/^database: (sqlite|postgresql) \S+\n$/) });
      expect(sent.stdout).toContain(`POST ${rx.url} (webhook.test`);
      expect(sent.stdout).toContain('answer: HTTP 200');
      expect(rx.received).toHaveLength(1);
      const got = rx.received[0]!;
      const event = verifyWebhook(got.body, got.headers, created.webhook_secret);
      expect(event).toMatchObject({ event_type: 'webhook.test', project_id: created.project_id, status: 'success' });
      expect(got.headers['x-event-type']).toBe('webhook.test');
      expect(await validateWebhookBody(JSON.parse(got.body))).toEqual([]);
      // Not stored: the outbox has no row for it.
      expect(await ctx.testDb.db('webhooks').where({ project_id: created.project_id })).toEqual([]);
    } finally {
      await rx.close();
    }
  });

  it('when the receiver refuses the event, then its status and body are printed and the exit code is 1', async () => {
    const created = JSON.parse(
      (await trustgate(['project', 'create', '--name', 'Strict', '--test', '--json'])).stdout,
    ) as ProjectCredentials;
    const http = await import('node:http');
    const server = http.createServer((_req, res) =>
      res.writeHead(400, { 'content-type': 'application/json' }).end('{"reason":"bad_signature"}'),
    );
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/hooks`;
      await trustgate(['project', 'set-webhook', created.project_id, url]);
      const r = await trustgate(['webhooks', 'test', created.project_id, '--json'], { WEBHOOK_ALLOW_PRIVATE: '1' });
      expect(r.code).toBe(1);
      expect(JSON.parse(r.stdout)).toMatchObject({
        outcome: 'answered',
        status: 400,
        body: '{"reason":"bad_signature"}',
      });
      expect(r.stderr).toMatch(/HTTP 400: only a 2xx acknowledges/);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });

  it('when no project is named and there are several, or the project has no URL, then it says what to do', async () => {
    const several = await trustgate(['webhooks', 'test']);
    expect(several.code).toBe(2);
    expect(several.stderr).toMatch(/needs a PROJECT_ID: there are \d+ projects/);
    const bare = JSON.parse((await trustgate(['project', 'create', '--name', 'Bare', '--json'])).stdout);
    const none = await trustgate(['webhooks', 'test', bare.project_id]);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain(`trustgate project set-webhook ${bare.project_id} URL`);
  });
});
