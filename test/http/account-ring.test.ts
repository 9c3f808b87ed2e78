/**
 * An account's ring through HTTP, with sessions posted as the SDK posts them and a real
 * database: seven accounts on one browser (a ring), one more linked to a member by a phone
 * (hop 2), and a pair of friends linked to each other only. Every session comes from an address
 * in a /24 of its own, so the accounts share only what the test gives them.
 */
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import type { AccountInput, AccountRing, AuditEvents, IngestSession, RingBlocked } from '../../src/api-types';
import { makeTestContext, TEST_NOW, type TestContext } from '../helpers/app';
import { scenario } from '../helpers/evaluation';

let ctx: TestContext;
let s: ReturnType<typeof scenario>;
let apiKey: string;
let projectId: string;

const RING = ['ring-1', 'ring-2', 'ring-3', 'ring-4', 'ring-5', 'ring-6', 'ring-7'];
const DEVICE = randomUUID();
const PHONE = '+447911123987';

let ips = 0;
/** A residential London address in a /24 no other session of this file uses. */
const freshIp = () => {
  const n = ips++;
  return `90.${200 + Math.floor(n / 250)}.${n % 250}.10`;
};

const signIn = (account: AccountInput, session: Partial<IngestSession> = {}) => s.signIn(account, session, freshIp());
/** Two members are bots (a driver's webdriver flag): decided Fake. */
const BOTS = ['ring-5', 'ring-6'];

beforeAll(async () => {
  ctx = await makeTestContext({ trustProxy: 'loopback' });
  ctx.clock.set(TEST_NOW);
  // Subscribed to the list events, with a receiver that is never reached: what is queued is counted.
  const p = await ctx.services.projects.create({ name: `Ring ${randomUUID()}`, webhookUrl: 'http://127.0.0.1:9/hook' });
  apiKey = p.api_key;
  projectId = p.project_id;
  await request(ctx.app)
    .patch('/project')
    .set('x-api-key', apiKey)
    .send({ webhook_events: ['list.account_added', 'list.account_removed'] })
    .expect(200);
  s = scenario(ctx, p.api_key, p.project_id);
  for (const id of RING) {
    const bot = BOTS.includes(id) ? { automation: { webdriver: true, signals: [] } } : {};
    const answer = await signIn({ id, ...(id === 'ring-7' ? { phone: PHONE } : {}) }, { device_id: DEVICE, ...bot });
    expect(answer.decision).toBe(BOTS.includes(id) ? 'Fake' : 'Real');
  }
  await signIn({ id: 'beyond', phone: PHONE });
  const friends = randomUUID();
  await signIn({ id: 'friend-a' }, { device_id: friends });
  await signIn({ id: 'friend-b' }, { device_id: friends });
  // What the nodes should show: two on block, one on allow, three labelled.
  for (const id of ['ring-2', 'ring-3']) await post(`/list/block/account/${id}`).expect(200);
  await post('/list/allow/account/ring-4').expect(200);
  for (const [id, label] of [
    ['ring-1', 'fraud'],
    ['ring-5', 'fraud'],
    ['beyond', 'legit'],
  ] as const)
    await post(`/account/${id}/label`).send({ label }).expect(201);
}, 60_000);
afterAll(() => ctx.close());

function post(path: string) {
  return request(ctx.app).post(path).set('x-api-key', apiKey);
}

function get(path: string) {
  return request(ctx.app).get(path).set('x-api-key', apiKey);
}

async function ring(id: string, hops?: number): Promise<AccountRing> {
  const res = await get(`/account/${id}/ring${hops === undefined ? '' : `?hops=${hops}`}`);
  expect(res.status).toBe(200);
  return res.body as AccountRing;
}

const ids = (r: AccountRing, hop?: number) =>
  r.nodes
    .filter((n) => hop === undefined || n.hop === hop)
    .map((n) => n.account_id)
    .sort();

async function blockList(): Promise<string[]> {
  return ((await get('/list/block?limit=1000').expect(200)).body as { accounts: string[] }).accounts;
}

/** The list events queued for the project, by type. */
async function queued(): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const w of await ctx.services.repos.outbox.list({ limit: 1000 }))
    if (w.projectId === projectId) out[w.eventType] = (out[w.eventType] ?? 0) + 1;
  return out;
}

async function auditActions(): Promise<string[]> {
  return ((await get('/audit?limit=100').expect(200)).body as AuditEvents).events.map((e) => e.action);
}

describe('getAccountRing', () => {
  test('when one hop is asked, then the ring is the account and the six on its browser, each linked to it', async () => {
    const r = await ring('ring-1', 1);
    expect(r.hops).toBe(1);
    expect(ids(r, 0)).toEqual(['ring-1']);
    expect(ids(r, 1)).toEqual(RING.slice(1));
    expect(ids(r, 2)).toEqual([]);
    expect(r.edges.map((e) => [e.from, e.to, e.match_type, e.score]).sort()).toEqual(
      RING.slice(1).map((id) => ['ring-1', id, ['browser'], 1]),
    );
    expect(r.summary.size).toBe(7);
    expect(r.summary.truncated).toBe(false);
  });

  test('when two hops are asked (the default), then the account linked to a member by a phone joins, and the friends never do', async () => {
    const r = await ring('ring-1');
    expect(r.hops).toBe(2);
    expect(ids(r, 1)).toEqual(RING.slice(1));
    expect(ids(r, 2)).toEqual(['beyond']);
    expect(ids(r)).not.toContain('friend-a');
    const beyond = r.nodes.find((n) => n.account_id === 'beyond')!;
    expect(beyond.link_score).toBeCloseTo(0.85, 5);
    // The edges among the members are there too, once a pair, and the phone's to hop 2.
    expect(r.edges.filter((e) => e.match_type.includes('browser'))).toHaveLength(21);
    expect(r.edges.filter((e) => e.to === 'beyond' || e.from === 'beyond')).toEqual([
      { from: 'ring-7', to: 'beyond', match_type: ['phone'], score: beyond.link_score },
    ]);
    // Seen from the friends, the ring is theirs alone.
    expect(ids(await ring('friend-a'))).toEqual(['friend-a', 'friend-b']);
  });

  test('when the members have decisions, labels and lists, then each node shows them and the summary counts them', async () => {
    const r = await ring('ring-1');
    for (const n of r.nodes) {
      const account = (await get(`/account/${n.account_id}`).expect(200)).body as {
        decision?: string;
        account_score?: number;
        lists: string[];
        list_decision?: unknown;
        label?: { label: string };
      };
      expect(n.decision).toBe(account.decision ?? null);
      expect(n.account_score).toBe(account.account_score ?? null);
      expect(n.lists).toEqual(account.lists);
      expect(n.list_decision).toEqual(account.list_decision);
      expect(n.label).toBe(account.label?.label ?? null);
    }
    const node = (id: string) => r.nodes.find((n) => n.account_id === id)!;
    expect(node('ring-2').list_decision).toEqual({ list: 'block', decision: 'Fake' });
    expect(node('ring-4').list_decision).toEqual({ list: 'allow', decision: 'Real' });
    expect(node('ring-6').list_decision).toBeUndefined();
    expect(node('ring-1').label).toBe('fraud');
    expect(node('beyond').label).toBe('legit');
    expect(r.summary).toEqual({
      size: 8,
      fake: { count: 2, share: 0.25 },
      blocked: { count: 2, share: 0.25 },
      labelled_fraud: { count: 2, share: 0.25 },
      labelled_legit: { count: 1, share: 0.125 },
      truncated: false,
    });
  });

  test('when more accounts are linked than a hop keeps, then the 40 strongest are kept and the summary says truncated', async () => {
    const p = await ctx.services.projects.create({ name: `Crowd ${randomUUID()}` });
    const crowd = scenario(ctx, p.api_key, p.project_id);
    const device = randomUUID();
    for (let i = 0; i < 42; i++) await crowd.signIn({ id: `crowd-${i}` }, { device_id: device }, freshIp());
    const res = await request(ctx.app).get('/account/crowd-0/ring?hops=1').set('x-api-key', p.api_key).expect(200);
    const r = res.body as AccountRing;
    expect(r.nodes).toHaveLength(41);
    expect(r.summary).toMatchObject({ size: 41, truncated: true });
  }, 60_000);

  test('when the linked accounts have many sessions, then their merged search is read in parts and finds the same links', async () => {
    // Five accounts sharing a phone, each with 50 sessions of its own browser and address: their
    // merged search has over 600 branches, more than SQLite takes in one compound statement.
    const p = await ctx.services.projects.create({ name: `Busy ${randomUUID()}` });
    const busy = scenario(ctx, p.api_key, p.project_id);
    const phone = '+447911123321';
    await busy.signIn({ id: 'busy-root', phone }, {}, freshIp());
    for (let a = 0; a < 5; a++)
      for (let i = 0; i < 50; i++) await busy.signIn({ id: `busy-${a}`, phone }, {}, freshIp());
    const res = await request(ctx.app).get('/account/busy-root/ring?hops=2').set('x-api-key', p.api_key).expect(200);
    const r = res.body as AccountRing;
    expect(ids(r, 1)).toEqual(['busy-0', 'busy-1', 'busy-2', 'busy-3', 'busy-4']);
    // Each pair of the six once, by the phone alone.
    expect(r.edges).toHaveLength(15);
    expect(new Set(r.edges.map((e) => e.match_type.join()))).toEqual(new Set(['phone']));
  }, 120_000);

  test('when the input is bad, then a 400 names the field', async () => {
    const res = await get('/account/ring-1/ring?hops=3');
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/hops/);
    expect((await get('/account/nobody/ring')).body).toEqual({ statusCode: 400, message: 'Account not found' });
  });
});

describe('blockAccountRing', () => {
  test('when the input is bad, then a 400 names the field and nothing is written', async () => {
    const before = await blockList();
    const audit = await auditActions();
    const outside = await post('/account/ring-1/ring/block').send({ account_ids: ['ring-6', 'friend-a'] });
    expect(outside.status).toBe(400);
    expect(outside.body.message).toBe('request/body/account_ids: not in the ring of ring-1 to 2 hops: friend-a');
    const hops = await post('/account/ring-1/ring/block').send({ hops: 0 });
    expect(hops.status).toBe(400);
    expect(hops.body.message).toMatch(/hops/);
    const unknown = await post('/account/ring-1/ring/block').send({ dry: true });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toMatch(/dry/);
    expect(await blockList()).toEqual(before);
    expect(await auditActions()).toEqual(audit);
  });

  test('when a dry run asks, then it counts the ring and writes nothing', async () => {
    const before = await blockList();
    const audit = await auditActions();
    const events = await queued();
    const res = await post('/account/ring-1/ring/block').send({ dry_run: true }).expect(200);
    expect(res.body as RingBlocked).toEqual({
      request_id: expect.any(String),
      account_id: 'ring-1',
      hops: 2,
      dry_run: true,
      account_ids: [...RING, 'beyond'].sort(),
      added: 6,
      already_blocked: 2,
    });
    expect(await blockList()).toEqual(before);
    expect(await auditActions()).toEqual(audit);
    expect(await queued()).toEqual(events);
  });

  test('when the ring is blocked, then its accounts join block, one audit event names them, and a member is next decided Fake', async () => {
    const queuedBefore = await queued();
    const res = await post('/account/ring-1/ring/block').send({ hops: 1 }).expect(200);
    // A list event per membership changed: five joined block, ring-4 left allow.
    const after = await queued();
    expect(after['list.account_added']).toBe(queuedBefore['list.account_added']! + 5);
    expect(after['list.account_removed']).toBe((queuedBefore['list.account_removed'] ?? 0) + 1);
    expect(res.body as RingBlocked).toMatchObject({ dry_run: false, account_ids: RING, added: 5, already_blocked: 2 });
    expect((await blockList()).filter((id) => RING.includes(id))).toEqual(RING);
    expect(await blockList()).not.toContain('beyond');
    const events = ((await get('/audit?limit=100').expect(200)).body as AuditEvents).events;
    const [event] = events.filter((e) => e.action === 'ring.blocked');
    expect(events.filter((e) => e.action === 'ring.blocked')).toHaveLength(1);
    const joined = RING.filter((id) => !['ring-2', 'ring-3'].includes(id));
    expect(event).toMatchObject({
      account_id: 'ring-1',
      changes: [
        { field: 'blocked_count', before: null, after: 5 },
        ...joined.map((id) => ({ field: 'blocked_account', before: null, after: id })),
      ],
    });
    // ring-4 left allow for block; its next evaluation is decided by the block list.
    const next = await s.signIn({ id: 'ring-4' }, { device_id: DEVICE }, freshIp());
    expect(next.decision).toBe('Fake');
    expect(next.lists).toEqual(['block']);
    // The confirmed accounts only: the one left joins, the others were there already.
    const again = await post('/account/ring-1/ring/block')
      .send({ account_ids: ['beyond', 'ring-2'] })
      .expect(200);
    expect(again.body).toMatchObject({ account_ids: ['beyond', 'ring-2'], added: 1, already_blocked: 1 });
  });

  test('when a blocked member is erased, then the audit of the block no longer names it', async () => {
    await request(ctx.app).delete('/account/ring-6').set('x-api-key', apiKey).expect(200);
    const events = ((await get('/audit?limit=100').expect(200)).body as AuditEvents).events;
    const blocked = events.filter((e) => e.action === 'ring.blocked').flatMap((e) => e.changes.map((c) => c.after));
    expect(blocked).not.toContain('ring-6');
    expect(blocked).toContain('[erased]');
  });
});
