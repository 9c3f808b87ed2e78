/**
 * Retention through the real app and database: periods set with PATCH /project, data made
 * through the API at explicit earlier times (the context's fixed clock), one retention pass,
 * then exactly the due rows are gone (sessions with what hangs on them, verification media and
 * their files, delivered webhooks), everything else is untouched (newer rows, pending
 * webhooks, another project's data), no personal data of what went is left in any table, the
 * metrics and the log line count it, and the batches are as small as asked.
 */
import request from 'supertest';
import { DAY_MS } from '../../src/domain/numbers';
import { makeMetrics, type Metrics } from '../../src/telemetry/metrics';
import { TEST_NOW, type TestContext } from '../helpers/app';
import { sqliteBytes, statementsDuring } from '../helpers/db';
import { AWS_IP, LONDON_IP, personSession, scenario, US_IP } from '../helpers/evaluation';
import { fakeAnalysisEngine, fakeImage } from '../helpers/fake-analysis';
import { storedMediaIds } from '../helpers/media';
import { parseMetrics, valueOf } from '../helpers/prometheus';
import { deliverDue, verificationContext, type verificationFlow } from '../helpers/verification';

let ctx: TestContext;
let flow: ReturnType<typeof verificationFlow>;
let close: () => Promise<void>;
let metrics: Metrics;

const NOW = new Date(TEST_NOW).getTime();
const daysAgo = (d: number) => new Date(NOW - d * DAY_MS);

/** What only the expired data carried: none of it may be left anywhere. */
const OLD_EMAIL = 'gone.person@old-only.example';
const OLD_UA = 'Mozilla/5.0 (X11; Linux x86_64) RetentionOldBrowser/1.0';
const OLD_DEVICE = 'old-device-0000-4000-8000-000000000001';
const OLD_FINGERPRINT = 'oldfingerprint00000000000000000001';
const OLD_MIXED_DEVICE = 'old-device-0000-4000-8000-000000000002';
const OTHER_EMAIL = 'kept.person@other-project.example';

const db = () => ctx.testDb.db;

async function ids(table: string, column: string, where: Record<string, unknown> = {}): Promise<string[]> {
  return (await db()(table).where(where).pluck(column)).map(String).sort();
}

/** Every row of every table of the schema, as text (the personal-data scan). */
async function everyRow(): Promise<string> {
  const tables =
    ctx.testDb.dialect === 'postgresql'
      ? (await db().raw(`SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public'`)).rows
      : await db().raw(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`);
  const out: string[] = [];
  for (const { name } of tables as { name: string }[]) {
    for (const row of await db()(name).select('*')) out.push(`${name}: ${JSON.stringify(row)}`);
  }
  return out.join('\n');
}

/** The other project's sessions, accounts and identifiers, as text. */
const otherRows = async () =>
  JSON.stringify([
    await db()('sessions').where({ project_id: seeded.other.project_id }).orderBy('id'),
    await db()('accounts').where({ project_id: seeded.other.project_id }).orderBy('id'),
    await db()('identifier_accounts').where({ project_id: seeded.other.project_id }).orderBy('value'),
  ]);

/** The images kept: the files on SQLite, the media table's rows on PostgreSQL. */
const mediaFiles = () => storedMediaIds(ctx);

interface Seeded {
  /** Project A's sessions made 100 and 45 days ago (due with a 30-day period), and since. */
  oldSessions: string[];
  newSessions: string[];
  /** The other project's sessions (no periods: all kept, however old). */
  otherSessions: string[];
  oldVerification: string;
  midVerification: string;
  newVerification: string;
  pendingVerification: string;
  other: { project_id: string; api_key: string };
}
let seeded: Seeded;

async function completedVerification(account: string, ip: string, userAgent?: string): Promise<string> {
  const s = await flow.create('face-match', { account_id: account });
  const res = await flow.complete(
    s,
    { selfie: fakeImage({ faces: [{ person: account }] }) },
    { ip, session: userAgent ? { user_agent: userAgent } : {} },
  );
  expect(res.body.status).toBe('success');
  return s.id;
}

async function seed(): Promise<Seeded> {
  const a = scenario(ctx);
  const made = await ctx.services.projects.create({ name: 'Other project' });
  const other = { project_id: made.project_id, api_key: made.api_key };
  const b = scenario(ctx, other.api_key, other.project_id);
  const sessionsOf = (projectId: string) => ids('sessions', 'id', { project_id: projectId });

  // 100 days ago: an account seen only then (erased with its last session), and a session of an
  // account seen again since; a completed verification (media, result, face, delivered webhook).
  ctx.clock.set(daysAgo(100));
  await a.signIn(
    { id: 'gone-user', email: OLD_EMAIL, lists: ['block'] },
    { user_agent: OLD_UA, device_id: OLD_DEVICE, browser_fingerprint: OLD_FINGERPRINT },
    US_IP,
  );
  await a.signIn(
    { id: 'mixed-user', email: 'mixed.person@example.com' },
    { user_agent: OLD_UA, device_id: OLD_MIXED_DEVICE },
    US_IP,
  );
  const oldVerification = await completedVerification('mixed-user', US_IP, OLD_UA);
  await deliverDue(ctx);
  // The other project, as old: never touched (it has no periods).
  await b.signIn({ id: 'other-user', email: OTHER_EMAIL }, {}, AWS_IP);
  // 45 days ago: more sessions of the first account, due too (several batches of 2).
  ctx.clock.set(daysAgo(45));
  for (let i = 0; i < 3; i++)
    await a.signIn({ id: 'gone-user', email: OLD_EMAIL }, { user_agent: OLD_UA, device_id: OLD_DEVICE }, US_IP);
  const oldSessions = await sessionsOf(ctx.project.project_id);

  // 20 days ago: a verification whose media are kept (60 days) but whose delivered webhook is due (10 days).
  ctx.clock.set(daysAgo(20));
  const midVerification = await completedVerification('mixed-user', LONDON_IP);
  await deliverDue(ctx);
  // 1 day ago: a session of the account seen before, and a verification, both kept.
  ctx.clock.set(daysAgo(1));
  await a.signIn({ id: 'mixed-user', email: 'mixed.person@example.com' }, {}, LONDON_IP);
  const newVerification = await completedVerification('mixed-user', LONDON_IP);
  await deliverDue(ctx);
  // 20 days ago again: a verification whose webhook is still pending (never removed).
  ctx.clock.set(daysAgo(20));
  const pendingVerification = await completedVerification('pending-user', LONDON_IP);
  const newSessions = (await sessionsOf(ctx.project.project_id)).filter((id) => !oldSessions.includes(id));
  ctx.clock.set(TEST_NOW);
  return {
    oldSessions,
    newSessions,
    otherSessions: await sessionsOf(other.project_id),
    oldVerification,
    midVerification,
    newVerification,
    pendingVerification,
    other,
  };
}

const patchProject = (body: Record<string, unknown>, apiKey = ctx.project.api_key) =>
  request(ctx.app).patch('/project').set('x-api-key', apiKey).send(body);

beforeAll(async () => {
  metrics = makeMetrics({ defaults: false });
  ({ ctx, flow, close } = await verificationContext(undefined, {
    analysis: fakeAnalysisEngine,
    media: true,
    metrics,
  }));
  seeded = await seed();
}, 120_000);
afterAll(() => close());

describe('retention settings (PATCH /project)', () => {
  test('when a project is new, then it keeps everything (every period null)', async () => {
    const res = await request(ctx.app).get('/project').set('x-api-key', seeded.other.api_key);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      retention_sessions_days: null,
      retention_verification_media_days: null,
      retention_delivered_webhooks_days: null,
    });
  });

  test.each([
    [{ retention_sessions_days: 0 }, 'retention_sessions_days'],
    [{ retention_verification_media_days: 1.5 }, 'retention_verification_media_days'],
    [{ retention_delivered_webhooks_days: 36501 }, 'retention_delivered_webhooks_days'],
    [{ retention_sessions_days: '30' }, 'retention_sessions_days'],
  ])('when a period is %j, then 400 naming the field, and nothing is written', async (body, field) => {
    const before = await request(ctx.app).get('/audit').set('x-api-key', seeded.other.api_key);
    const res = await patchProject(body, seeded.other.api_key);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(field);
    const after = await request(ctx.app).get('/audit').set('x-api-key', seeded.other.api_key);
    expect(after.body.events).toEqual(before.body.events);
  });

  test('when the CLI sets a period out of range, then it is refused naming the field', async () => {
    await expect(
      ctx.services.projects.update(seeded.other.project_id, { retentionSessionsDays: 0 }, 'cli'),
    ).rejects.toThrow(/retention_sessions_days/);
  });
});

describe('a retention pass', () => {
  let pass: Awaited<ReturnType<TestContext['services']['retention']['runOnce']>>;
  let sent: { sql: string; bindings: unknown[] }[];
  let before: {
    media: string[];
    oldMedia: string[];
    keptMedia: string[];
    webhooks: Record<string, { request_id: string; status: string }>;
    other: string;
    /** SQLite: whether the file or its log held the erased account's email before the pass. */
    emailOnDisk?: boolean;
  };

  beforeAll(async () => {
    const res = await patchProject({
      retention_sessions_days: 30,
      retention_verification_media_days: 60,
      retention_delivered_webhooks_days: 10,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ retention_sessions_days: 30, retention_delivered_webhooks_days: 10 });

    const capturesOf = (id: string) => ids('verification_captures', 'media_id', { session_id: id });
    const webhookOf = async (id: string) =>
      (await db()('webhooks').where({ session_id: id }).first('request_id', 'status')) as {
        request_id: string;
        status: string;
      };
    before = {
      media: await mediaFiles(),
      oldMedia: await capturesOf(seeded.oldVerification),
      keptMedia: [
        ...(await capturesOf(seeded.midVerification)),
        ...(await capturesOf(seeded.newVerification)),
        ...(await capturesOf(seeded.pendingVerification)),
      ],
      webhooks: {
        old: await webhookOf(seeded.oldVerification),
        mid: await webhookOf(seeded.midVerification),
        new: await webhookOf(seeded.newVerification),
        pending: await webhookOf(seeded.pendingVerification),
      },
      other: await otherRows(),
      ...(ctx.testDb.sqliteFile ? { emailOnDisk: sqliteBytes(ctx.testDb.sqliteFile).includes(OLD_EMAIL) } : {}),
    };
    expect(before.oldMedia.length).toBeGreaterThan(0);
    expect(await ids('verification_faces', 'session_id', { session_id: seeded.oldVerification })).toEqual([
      seeded.oldVerification,
    ]);
    expect(before.media).toEqual(expect.arrayContaining([...before.oldMedia, ...before.keptMedia]));
    expect(Object.fromEntries(Object.entries(before.webhooks).map(([k, w]) => [k, w.status]))).toEqual({
      old: 'delivered',
      mid: 'delivered',
      new: 'delivered',
      pending: 'pending',
    });
    // The pass: batches of 2.
    sent = await statementsDuring(db(), async () => {
      pass = await ctx.services.retention.runOnce({ batchSize: 2 });
    });
  });

  test("when sessions are past the project's period, then exactly they go, with their facts and links", async () => {
    expect(seeded.oldSessions.length).toBeGreaterThanOrEqual(6);
    expect(seeded.newSessions.length).toBeGreaterThanOrEqual(3);
    expect(await ids('sessions', 'id', { project_id: ctx.project.project_id })).toEqual([...seeded.newSessions].sort());
    for (const table of ['session_facts', 'session_accounts'])
      expect({ table, left: await db()(table).whereIn('session_id', seeded.oldSessions).pluck('session_id') }).toEqual({
        table,
        left: [],
      });
    expect(pass.sessions).toBe(seeded.oldSessions.length);
  });

  test('when an account is left without sessions, then it is erased as DELETE /account erases it; one with newer sessions keeps them, its aggregates recomputed', async () => {
    expect(
      await db()('accounts').where({ project_id: ctx.project.project_id, id: 'gone-user' }).first(),
    ).toBeUndefined();
    expect(await ids('list_members', 'list_name', { account_id: 'gone-user' })).toEqual([]);
    expect(await db()('email_domains').where({ domain: 'old-only.example' }).first('num_accounts')).toEqual({
      num_accounts: 0,
    });
    const mixed = await request(ctx.app).get('/account/mixed-user').set('x-api-key', ctx.project.api_key);
    expect(mixed.status).toBe(200);
    const kept = await db()('accounts').where({ project_id: ctx.project.project_id, id: 'mixed-user' }).first();
    const mine = await ids('session_accounts', 'session_id', { account_id: 'mixed-user' });
    expect(Number(kept.num_sessions)).toBe(mine.length);
    expect(mine.every((id) => seeded.newSessions.includes(id))).toBe(true);
    expect(seeded.newSessions).toContain(kept.last_session_id);
    // The identifiers only the old sessions carried are gone; the newer session's stay.
    const values = await ids('identifier_accounts', 'value', { account_id: 'mixed-user' });
    expect(values).not.toContain(OLD_MIXED_DEVICE);
    expect(values.length).toBeGreaterThan(0);
    expect(pass.accounts).toBe(1);
  });

  test('when a verification is past the media period, then its captures, images, result, face and webhook go; the newer ones are untouched', async () => {
    const old = await db()('verification_sessions').where({ id: seeded.oldVerification }).first();
    expect(old).toMatchObject({ result: null, state: 'ended' });
    expect(old.media_erased_at).not.toBeNull();
    expect(await ids('verification_captures', 'id', { session_id: seeded.oldVerification })).toEqual([]);
    expect(await ids('verification_faces', 'session_id', { session_id: seeded.oldVerification })).toEqual([]);
    expect(await ids('webhooks', 'request_id', { session_id: seeded.oldVerification })).toEqual([]);
    const files = await mediaFiles();
    for (const id of before.oldMedia) expect(files).not.toContain(id);
    for (const id of before.keptMedia) expect(files).toContain(id);
    for (const id of [seeded.midVerification, seeded.newVerification]) {
      const row = await db()('verification_sessions').where({ id }).first();
      expect(row.result).not.toBeNull();
      expect(row.media_erased_at).toBeNull();
    }
    const verify = (id: string) =>
      request(ctx.app).post('/liveness/verify-face').set('x-api-key', ctx.project.api_key).send({ session_id: id });
    const erased = await verify(seeded.oldVerification);
    expect(erased.status).toBe(400);
    expect(erased.body).toMatchObject({ error: 'session_not_found' });
    expect((await verify(seeded.midVerification)).status).toBe(200);
    expect(pass.verification_media).toBe(1);
    expect(pass.media_files).toBe(before.oldMedia.length);
  });

  test('when a delivered webhook is past its period, then it goes with its attempts; newer and pending ones stay', async () => {
    // The oldest one went under this period too (before the media period's pass came to its session).
    expect(await db()('webhooks').where({ request_id: before.webhooks.old!.request_id }).first()).toBeUndefined();
    const [mid, recent, pending] = [before.webhooks.mid!, before.webhooks.new!, before.webhooks.pending!];
    expect(await db()('webhooks').where({ request_id: mid.request_id }).first()).toBeUndefined();
    expect(await ids('webhook_attempts', 'attempt', { request_id: mid.request_id })).toEqual([]);
    expect(await db()('webhooks').where({ request_id: recent.request_id }).first('status')).toEqual({
      status: 'delivered',
    });
    expect(await db()('webhooks').where({ request_id: pending.request_id }).first('status')).toEqual({
      status: 'pending',
    });
    expect(pass.delivered_webhooks).toBe(2);
  });

  test('when the pass is over, then no personal data of what went is left in any table', async () => {
    const rows = await everyRow();
    for (const gone of [OLD_EMAIL, OLD_UA, OLD_DEVICE, OLD_FINGERPRINT, OLD_MIXED_DEVICE, US_IP, 'gone-user'])
      expect({ gone, found: rows.includes(gone) }).toEqual({ gone, found: false });
    // The other project's old data is all there.
    expect(rows).toContain(OTHER_EMAIL);
  });

  (process.env.DATABASE_URL ? test.skip : test)(
    'when the pass is over on SQLite, then neither the file nor its log holds the erased account’s email',
    () => {
      expect(before.emailOnDisk).toBe(true);
      expect(sqliteBytes(ctx.testDb.sqliteFile!)).not.toContain(OLD_EMAIL);
    },
  );

  test('when another project has no periods, then none of its rows change, however old', async () => {
    expect(await ids('sessions', 'id', { project_id: seeded.other.project_id })).toEqual(seeded.otherSessions);
    expect(await otherRows()).toBe(before.other);
  });

  test('when the batch size is 2, then each batch removes at most 2 rows in a transaction of its own', async () => {
    const deletes = sent.filter((s) => /^delete from ["`]sessions["`]/i.test(s.sql.trim()));
    expect(deletes.length).toBe(Math.ceil(seeded.oldSessions.length / 2));
    // Each: the project and at most 2 ids.
    for (const d of deletes) expect(d.bindings.length).toBeLessThanOrEqual(3);
    expect(pass.batches).toBeGreaterThanOrEqual(deletes.length + 1);
    // One transaction a batch, and none around the pass.
    expect(sent.filter((s) => /^begin/i.test(s.sql.trim()))).toHaveLength(pass.batches);
  });

  test('when rows were removed, then the metrics count them by kind and one log line gives the counts, without personal data', async () => {
    const scrape = parseMetrics((await metrics.scrape()).body);
    const removed = (kind: string) => valueOf(scrape, 'trustgate_retention_removed_total', { kind });
    expect({
      sessions: removed('sessions'),
      accounts: removed('accounts'),
      verification_media: removed('verification_media'),
      media_files: removed('media_files'),
      delivered_webhooks: removed('delivered_webhooks'),
    }).toEqual({
      sessions: pass.sessions,
      accounts: 1,
      verification_media: 1,
      media_files: before.oldMedia.length,
      delivered_webhooks: 2,
    });
    const lines = ctx.logs.filter((l) => l.msg === 'retention pass');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ removed: { sessions: pass.sessions, accounts: 1, delivered_webhooks: 2 } });
    expect(JSON.stringify(lines[0])).not.toMatch(/gone|old-only|RetentionOld|73\.162/);
  });

  test('when a second pass runs at the same time, then it removes nothing', async () => {
    const again = await ctx.services.retention.runOnce({ batchSize: 2 });
    expect(again).toMatchObject({
      sessions: 0,
      accounts: 0,
      verification_media: 0,
      media_files: 0,
      delivered_webhooks: 0,
    });
  });
});
