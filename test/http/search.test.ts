/**
 * The Search endpoints through HTTP with a real database: GET /accounts and GET /sessions with
 * each filter, cursor pagination (also while sessions and accounts are added), the CSV and
 * NDJSON exports, other projects' objects, and bad input. The history is written through the
 * repositories (as query-plans.test.ts seeds) with a model of it beside, so that each answer
 * is compared with what the filters must select; one account is also signed in through the
 * real authenticate path. Response validation is on.
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import type {
  AccountPage,
  AccountSummary,
  EvaluatedSession,
  RiskSignalName,
  SessionPage,
  SessionSummary,
} from '../../src/api-types';
import type { SdkFacts } from '../../src/domain/session/sdk-facts';
import type { Project } from '../../src/storage/repositories/projects';
import { EXPORT_BATCH } from '../../src/usecases/search';
import { makeTestContext, type TestContext } from '../helpers/app';
import { LONDON_IP, scenario } from '../helpers/evaluation';
import { example } from '../helpers/spec';

let ctx: TestContext;
let key: string;
let project: Project;

const NOW = Date.parse('2026-11-20T12:00:00.000Z');
const HOUR = 3_600_000;
const DOMAINS = ['gmail.com', 'acme.com', 'example.org'];
const COUNTRIES = ['GB', 'US', 'FR'];

interface ModelSession {
  id: string;
  accountId?: string;
  startTime: number;
  deviceId: string;
  fingerprint: string;
  ip: string;
  block: string;
  country: string;
  decision?: 'Real' | 'Fake';
  score?: number;
  signals: RiskSignalName[];
}
interface ModelAccount {
  id: string;
  domain: string;
  decision?: 'Real' | 'Fake';
  score?: number;
  lists: string[];
  sessions: ModelSession[];
}
const accounts: ModelAccount[] = [];
const sessions: ModelSession[] = [];

let template: EvaluatedSession;
let sessionNo = 0;

/** Stores a session (as ingestion does), links it to the account and records its evaluation. */
async function addSession(
  p: Project,
  s: Omit<ModelSession, 'id' | 'block' | 'signals'> & { signals?: RiskSignalName[] },
): Promise<ModelSession> {
  const { repos } = ctx.services;
  const id = `00000000-0000-4000-8000-${String(sessionNo++).padStart(12, '0')}`;
  const startTime = new Date(s.startTime);
  const sdk: SdkFacts = { source: 'web', device_id: s.deviceId, browser_fingerprint: s.fingerprint };
  const facts: EvaluatedSession = {
    ...structuredClone(template),
    start_time: startTime.toISOString(),
    device_id: s.deviceId,
    network: { ...template.network, ip_address: s.ip },
    location: { ...template.location, country_code: s.country },
  };
  await repos.sessions.insert({ id, projectId: p.id, ipAddress: s.ip, startTime, updatedAt: startTime, facts, sdk });
  if (s.accountId) await repos.sessions.addAccount(p.id, id, s.accountId, startTime);
  const signals = s.signals ?? [];
  if (s.decision) {
    const scores = { ...template.risk_signal_scores };
    for (const k of Object.keys(scores) as (keyof typeof scores)[]) scores[k] = signals.includes(k) ? 0.9 : 0;
    await repos.sessions.setEvaluation(p.id, id, {
      decision: s.decision,
      accountScore: s.score!,
      at: startTime,
      scores,
      spoofedIp: signals.includes('spoofed_ip'),
    });
  }
  const block = `${s.ip.split('.').slice(0, 3).join('.')}.0/24`;
  const stored = { ...s, id, block, signals: s.decision ? signals : [] };
  return stored;
}

async function addAccount(p: Project, i: number, prefix = 'acct'): Promise<ModelAccount> {
  const { repos, evaluation } = ctx.services;
  const id = `${prefix}-${String(i).padStart(4, '0')}`;
  const domain = DOMAINS[i % DOMAINS.length]!;
  const decision = i % 7 === 0 ? undefined : i % 5 === 0 ? ('Fake' as const) : ('Real' as const);
  const score = decision === 'Fake' ? 0.85 + (i % 10) / 100 : decision ? (i % 60) / 100 : undefined;
  const record = evaluation.applyInput(p, undefined, { email: `user${i}@${domain}`, first_name: `First${i}` }, id);
  record.createdAt = record.updatedAt = new Date(NOW - i * HOUR);
  if (decision) {
    record.decision = decision;
    record.scores = { account_score: score!, bot: 0, multiple_accounts: 0, risk_signals: 0 };
  }
  await repos.accounts.upsert(record);
  const lists: string[] = [];
  if (i % 3 === 0) {
    await repos.lists.add(p.id, 'vip', id, new Date(NOW));
    lists.push('vip');
  }
  if (decision === 'Fake' && i % 2 === 0) {
    await repos.lists.add(p.id, 'block', id, new Date(NOW));
    lists.push('block');
  }
  const a: ModelAccount = { id, domain, lists: lists.sort(), sessions: [], ...(decision ? { decision, score } : {}) };
  // Two sessions each: the newer one is the account's latest (its country, decision and score).
  for (const n of [1, 0]) {
    const s = await addSession(p, {
      accountId: id,
      startTime: NOW - (i * 2 + n) * HOUR - 1000 * i,
      deviceId: `device-${i % 11}`,
      fingerprint: createHash('sha256')
        .update(`fp-${i % 13}`)
        .digest('hex')
        .slice(0, 32),
      ip: `81.2.${i % 4}.${1 + (i % 9)}`,
      country: COUNTRIES[(i + n) % COUNTRIES.length]!,
      ...(decision ? { decision, score: score! } : {}),
      signals: i % 4 === 0 ? ['vpn'] : i % 6 === 1 ? ['tor', 'spoofed_ip'] : [],
    });
    a.sessions.push(s);
    sessions.push(s);
  }
  await repos.accounts.refreshAggregates(p.id, [id]);
  accounts.push(a);
  return a;
}

beforeAll(async () => {
  ctx = await makeTestContext({ trustProxy: 'loopback' });
  key = ctx.project.api_key;
  project = (await ctx.services.repos.projects.findById(ctx.project.project_id))!;
  template = (await example<{ session: EvaluatedSession }>('AuthenticateResponseReal')).session;
  for (let i = 0; i < 60; i++) await addAccount(project, i);
  // Sessions without an account.
  for (let i = 0; i < 6; i++)
    sessions.push(
      await addSession(project, {
        startTime: NOW - (30 + i) * HOUR,
        deviceId: `device-${i}`,
        fingerprint: 'none',
        ip: `81.2.9.${i + 1}`,
        country: 'GB',
      }),
    );
}, 120_000);
afterAll(() => ctx?.close());

const get = (path: string, query: Record<string, string | number> = {}, apiKey = key) =>
  request(ctx.app).get(path).query(query).set('x-api-key', apiKey);

/** Every page of a list, following next_cursor (at most 100 requests). */
async function all<T>(path: string, query: Record<string, string | number>, member: 'accounts' | 'sessions') {
  const items: T[] = [];
  let cursor: string | undefined;
  for (let n = 0; n < 100; n++) {
    const res = await get(path, { ...query, ...(cursor ? { cursor } : {}) });
    expect(res.status).toBe(200);
    items.push(...(res.body[member] as T[]));
    cursor = res.body.next_cursor ?? undefined;
    if (!cursor) return items;
  }
  throw new Error('more than 100 pages');
}

const byId = (a: ModelAccount, b: ModelAccount) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
const newestFirst = (a: ModelSession, b: ModelSession) => b.startTime - a.startTime || (a.id < b.id ? 1 : -1);
const latest = (a: ModelAccount) => [...a.sessions].sort(newestFirst)[0]!;
const accountOf = (s: ModelSession) => accounts.find((a) => a.id === s.accountId);

describe('listAccounts', () => {
  const ids = async (query: Record<string, string | number>) =>
    (await all<AccountSummary>('/accounts', { limit: 7, ...query }, 'accounts')).map((a) => a.account.id);
  const expected = (keep: (a: ModelAccount) => boolean) =>
    accounts
      .filter(keep)
      .sort(byId)
      .map((a) => a.id);

  test('when no filter is given, then every account of the project comes in id order, each once', async () => {
    const res = await get('/accounts', { limit: 2 });
    expect(res.status).toBe(200);
    const first = (res.body as AccountPage).accounts[0]!;
    const model = accounts.find((a) => a.id === first.account.id)!;
    expect(first).toMatchObject({
      account: { id: model.id, email: `user0@${model.domain}`, first_name: 'First0', group: '' },
      num_sessions: 2,
      lists: model.lists,
      country: latest(model).country,
    });
    expect(await ids({})).toEqual(expected(() => true));
  });

  test('when a filter reads as JSON, then it is searched as the text it is, not as the JSON value', async () => {
    // (A $ref in a query parameter's schema made the validator parse `"device-3"` into device-3.)
    expect(await ids({ device_id: 'device-3' })).not.toEqual([]);
    expect(await ids({ device_id: '"device-3"' })).toEqual([]);
    const sessionsOf = async (device_id: string) => {
      const res = await get('/sessions', { device_id });
      expect(res.status).toBe(200);
      return (res.body as SessionPage).sessions;
    };
    expect(await sessionsOf('device-3')).not.toEqual([]);
    expect(await sessionsOf('"device-3"')).toEqual([]);
  });

  test.each([
    ['decision=Fake', { decision: 'Fake' }, (a: ModelAccount) => a.decision === 'Fake'],
    ['decision=Real', { decision: 'Real' }, (a: ModelAccount) => a.decision === 'Real'],
    ['list=vip', { list: 'vip' }, (a: ModelAccount) => a.lists.includes('vip')],
    ['list=block', { list: 'block' }, (a: ModelAccount) => a.lists.includes('block')],
    ['min_score', { min_score: 0.3 }, (a: ModelAccount) => a.score !== undefined && a.score >= 0.3],
    [
      'score range',
      { min_score: 0.1, max_score: 0.4 },
      (a: ModelAccount) => a.score !== undefined && a.score >= 0.1 && a.score <= 0.4,
    ],
    ['email_domain', { email_domain: 'ACME.com' }, (a: ModelAccount) => a.domain === 'acme.com'],
    [
      'email_domain and decision',
      { email_domain: 'gmail.com', decision: 'Real' },
      (a: ModelAccount) => a.domain === 'gmail.com' && a.decision === 'Real',
    ],
    ['email (any case)', { email: 'USER4@Acme.com' }, (a: ModelAccount) => a.id === 'acct-0004'],
    [
      'email (a provider alias) and decision',
      { email: 'User.3+promo@gmail.com', decision: 'Real' },
      (a: ModelAccount) => a.id === 'acct-0003',
    ],
    ['country', { country: 'FR' }, (a: ModelAccount) => latest(a).country === 'FR'],
    ['device_id', { device_id: 'device-3' }, (a: ModelAccount) => a.sessions.some((s) => s.deviceId === 'device-3')],
    [
      'fingerprint',
      { fingerprint: createHash('sha256').update('fp-5').digest('hex').slice(0, 32) },
      (a: ModelAccount) =>
        a.sessions.some((s) => s.fingerprint === createHash('sha256').update('fp-5').digest('hex').slice(0, 32)),
    ],
    ['ip_address', { ip_address: '81.2.1.2' }, (a: ModelAccount) => a.sessions.some((s) => s.ip === '81.2.1.2')],
    ['network', { network: '81.2.3.0/24' }, (a: ModelAccount) => a.sessions.some((s) => s.block === '81.2.3.0/24')],
    [
      'last seen range',
      { from: new Date(NOW - 40 * HOUR).toISOString(), to: new Date(NOW - 10 * HOUR).toISOString() },
      (a: ModelAccount) => latest(a).startTime >= NOW - 40 * HOUR && latest(a).startTime < NOW - 10 * HOUR,
    ],
    [
      'list, decision and device together',
      { list: 'vip', decision: 'Real', device_id: 'device-1' },
      (a: ModelAccount) =>
        a.lists.includes('vip') && a.decision === 'Real' && a.sessions.some((s) => s.deviceId === 'device-1'),
    ],
  ])('when filtered by %s, then exactly the accounts it selects come, in id order', async (_name, query, keep) => {
    const want = expected(keep);
    expect(want.length).toBeGreaterThan(0);
    expect(want.length).toBeLessThan(accounts.length);
    expect(await ids(query)).toEqual(want);
  });
});

describe('listAccounts sorted by score', () => {
  /** The evaluated accounts the filter keeps, the highest score first, equal scores by id descending. */
  const riskiestFirst = (keep: (a: ModelAccount) => boolean = () => true) =>
    accounts
      .filter((a) => a.score !== undefined && keep(a))
      .sort((a, b) => b.score! - a.score! || (a.id < b.id ? 1 : -1))
      .map((a) => a.id);
  const ids = async (query: Record<string, string | number>) =>
    (await all<AccountSummary>('/accounts', { sort: 'score', ...query }, 'accounts')).map((a) => a.account.id);

  test('when sorted by score, then the pages follow each other riskiest first, each evaluated account once', async () => {
    const want = riskiestFirst();
    // Many accounts share a score (the Fake ones' are 0.85 to 0.94): pages of 3 end inside ties.
    expect(new Set(accounts.filter((a) => a.score !== undefined).map((a) => a.score)).size).toBeLessThan(want.length);
    const got = await ids({ limit: 3 });
    expect(got).toEqual(want);
    const first = await get('/accounts', { sort: 'score', limit: 1 });
    expect((first.body as AccountPage).accounts[0]!.account_score).toBe(Math.max(...accounts.map((a) => a.score ?? 0)));
  });

  test.each([
    ['a score range', { min_score: 0.3, max_score: 0.9 }, (a: ModelAccount) => a.score! >= 0.3 && a.score! <= 0.9],
    ['a maximum', { max_score: 0.2 }, (a: ModelAccount) => a.score! <= 0.2],
    [
      'decision and list',
      { decision: 'Fake', list: 'vip' },
      (a: ModelAccount) => a.decision === 'Fake' && a.lists.includes('vip'),
    ],
    ['country', { country: 'FR' }, (a: ModelAccount) => latest(a).country === 'FR'],
    ['email', { email: 'user5@example.org' }, (a: ModelAccount) => a.id === 'acct-0005'],
  ])(
    'when sorted by score with %s, then exactly the accounts it selects come, riskiest first',
    async (_n, query, keep) => {
      const want = riskiestFirst(keep);
      expect(want.length).toBeGreaterThan(0);
      expect(await ids({ limit: 4, ...query })).toEqual(want);
    },
  );

  test('when a window holds fewer matches than the limit, then the page is short and its cursor goes on', async () => {
    const { search } = ctx.services.repos;
    const found: string[] = [];
    let after: { score: number; id: string } | undefined;
    let pages = 0;
    for (;;) {
      const page = await search.accountsByScore(project.id, { country: 'FR', maxScore: 0.9 }, after, 50, 10);
      pages++;
      found.push(...page.rows.map((r) => r.id));
      if (page.next === null) break;
      after = page.next;
    }
    expect(found).toEqual(riskiestFirst((a) => latest(a).country === 'FR' && a.score! <= 0.9));
    expect(pages).toBeGreaterThan(2);
  });

  test('when the score order is exported, then the lines come in the order of the pages', async () => {
    const res = await get('/accounts/export', { format: 'ndjson', sort: 'score' });
    expect(res.status).toBe(200);
    const lines = res.text
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as AccountSummary).account.id);
    expect(lines).toEqual(riskiestFirst());
  });
});

describe('labels in the summaries', () => {
  test('when an account is labelled, then its summary has its current label, and the others none', async () => {
    for (const [id, label] of [
      ['acct-0001', 'legit'],
      ['acct-0002', 'legit'],
      ['acct-0002', 'fraud'],
    ] as const) {
      const res = await request(ctx.app).post(`/account/${id}/label`).set('x-api-key', key).send({ label });
      expect(res.status).toBe(201);
    }
    const res = await get('/accounts', { limit: 5 });
    expect(res.status).toBe(200);
    const labels = Object.fromEntries((res.body as AccountPage).accounts.map((a) => [a.account.id, a.label ?? null]));
    expect(labels).toEqual({
      'acct-0000': null,
      'acct-0001': 'legit',
      'acct-0002': 'fraud',
      'acct-0003': null,
      'acct-0004': null,
    });
    const scored = await get('/accounts', { sort: 'score', email: 'user2@example.org' });
    expect((scored.body as AccountPage).accounts.map((a) => a.label)).toEqual(['fraud']);
  });
});

describe('listSessions', () => {
  const ids = async (query: Record<string, string | number>) =>
    (await all<SessionSummary>('/sessions', { limit: 9, ...query }, 'sessions')).map((s) => s.session_id);
  const expected = (keep: (s: ModelSession) => boolean) =>
    sessions
      .filter(keep)
      .sort(newestFirst)
      .map((s) => s.id);

  test('when no filter is given, then every session comes newest first, with its accounts and raised signals', async () => {
    const res = await get('/sessions', { limit: 500 });
    expect(res.status).toBe(200);
    const page = res.body as SessionPage;
    expect(page.next_cursor).toBeNull();
    expect(page.sessions.map((s) => s.session_id)).toEqual(expected(() => true));
    const tor = sessions.find((s) => s.signals.includes('tor'))!;
    expect(page.sessions.find((s) => s.session_id === tor.id)).toMatchObject({
      account_ids: [tor.accountId],
      device_id: tor.deviceId,
      ip_address: tor.ip,
      country_code: tor.country,
      decision: tor.decision,
      risk_signals: ['tor', 'spoofed_ip'],
    });
  });

  test.each([
    ['decision=Fake', { decision: 'Fake' }, (s: ModelSession) => s.decision === 'Fake'],
    [
      'score range',
      { min_score: 0.2, max_score: 0.5 },
      (s: ModelSession) => s.score !== undefined && s.score >= 0.2 && s.score <= 0.5,
    ],
    [
      'time range',
      { from: new Date(NOW - 50 * HOUR).toISOString(), to: new Date(NOW - 20 * HOUR).toISOString() },
      (s: ModelSession) => s.startTime >= NOW - 50 * HOUR && s.startTime < NOW - 20 * HOUR,
    ],
    ['signal=vpn', { signal: 'vpn' }, (s: ModelSession) => s.signals.includes('vpn')],
    ['signal=spoofed_ip', { signal: 'spoofed_ip' }, (s: ModelSession) => s.signals.includes('spoofed_ip')],
    ['country', { country: 'US' }, (s: ModelSession) => s.country === 'US'],
    ['account_id', { account_id: 'acct-0012' }, (s: ModelSession) => s.accountId === 'acct-0012'],
    ['list', { list: 'block' }, (s: ModelSession) => accountOf(s)?.lists.includes('block') === true],
    ['email_domain', { email_domain: 'Example.org' }, (s: ModelSession) => accountOf(s)?.domain === 'example.org'],
    [
      'list, email_domain and country together',
      { list: 'vip', email_domain: 'gmail.com', country: 'GB' },
      (s: ModelSession) =>
        accountOf(s)?.lists.includes('vip') === true && accountOf(s)?.domain === 'gmail.com' && s.country === 'GB',
    ],
    ['device_id', { device_id: 'device-4' }, (s: ModelSession) => s.deviceId === 'device-4'],
    ['ip_address', { ip_address: '81.2.2.3' }, (s: ModelSession) => s.ip === '81.2.2.3'],
    ['network', { network: '81.2.9.0/24' }, (s: ModelSession) => s.block === '81.2.9.0/24'],
    [
      'country, decision and time together',
      { country: 'GB', decision: 'Real', from: new Date(NOW - 80 * HOUR).toISOString() },
      (s: ModelSession) => s.country === 'GB' && s.decision === 'Real' && s.startTime >= NOW - 80 * HOUR,
    ],
    [
      'device, signal and score together',
      { device_id: 'device-0', signal: 'vpn', min_score: 0.1 },
      (s: ModelSession) => s.deviceId === 'device-0' && s.signals.includes('vpn') && (s.score ?? -1) >= 0.1,
    ],
  ])('when filtered by %s, then exactly the sessions it selects come, newest first', async (_name, query, keep) => {
    const want = expected(keep);
    expect(want.length).toBeGreaterThan(0);
    expect(want.length).toBeLessThan(sessions.length);
    expect(await ids(query)).toEqual(want);
  });
});

describe('score range of sessions', () => {
  test('when a score rounds onto a bound, then the range holds the score as answered (3 decimals)', async () => {
    const s = await addSession(project, {
      startTime: NOW - 3000 * HOUR,
      deviceId: 'device-round',
      fingerprint: 'x',
      ip: '81.2.6.1',
      country: 'GB',
      decision: 'Real',
      score: 0.4996,
    });
    sessions.push({ ...s, score: 0.5 });
    const found = async (query: Record<string, number>) =>
      ((await get('/sessions', { device_id: 'device-round', ...query })).body as SessionPage).sessions;
    expect((await found({ min_score: 0.5 })).map((x) => x.account_score)).toEqual([0.5]);
    expect(await found({ max_score: 0.5 })).toHaveLength(1);
    expect(await found({ max_score: 0.499 })).toEqual([]);
    expect(await found({ min_score: 0.5001 })).toEqual([]);
  });
});

describe('pagination', () => {
  test('when sessions and accounts are added between pages, then no existing one is repeated or missed', async () => {
    const before = sessions.map((s) => s.id);
    const seen: string[] = [];
    let cursor: string | undefined;
    let n = 0;
    for (;;) {
      const res = await get('/sessions', { limit: 10, ...(cursor ? { cursor } : {}) });
      expect(res.status).toBe(200);
      seen.push(...(res.body as SessionPage).sessions.map((s) => s.session_id));
      // Meanwhile: a new session now, and one older than everything (behind the cursor: it is read later).
      await addSession(project, {
        startTime: NOW + ++n * 1000,
        deviceId: 'device-new',
        fingerprint: 'x',
        ip: '81.2.8.1',
        country: 'GB',
      });
      await addSession(project, {
        startTime: NOW - 1000 * HOUR - n,
        deviceId: 'device-old',
        fingerprint: 'x',
        ip: '81.2.8.2',
        country: 'GB',
      });
      cursor = res.body.next_cursor ?? undefined;
      if (!cursor) break;
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect(before.filter((id) => !seen.includes(id))).toEqual([]);

    const seenAccounts: string[] = [];
    cursor = undefined;
    const existing = accounts.map((a) => a.id);
    for (let i = 0; ; i++) {
      const res = await get('/accounts', { limit: 10, ...(cursor ? { cursor } : {}) });
      seenAccounts.push(...(res.body as AccountPage).accounts.map((a) => a.account.id));
      await addAccount(project, 100 + i, i % 2 === 0 ? 'aaa' : 'zzz');
      cursor = res.body.next_cursor ?? undefined;
      if (!cursor) break;
    }
    expect(new Set(seenAccounts).size).toBe(seenAccounts.length);
    expect(existing.filter((id) => !seenAccounts.includes(id))).toEqual([]);
  });

  test('when a window holds fewer matches than the limit, then the page is short and its cursor goes on', async () => {
    // The repository with a window of 10 keys: the rare filter is found over several pages.
    const { search } = ctx.services.repos;
    const fakes: string[] = [];
    let after: string | undefined;
    let pages = 0;
    for (;;) {
      const page = await search.accounts(project.id, { country: 'FR', decision: 'Real' }, after, 50, 10);
      pages++;
      fakes.push(...page.rows.map((r) => r.id));
      if (page.next === null) break;
      after = page.next;
    }
    const want = accounts
      .filter((a) => latest(a).country === 'FR' && a.decision === 'Real')
      .map((a) => a.id)
      .sort();
    expect(fakes).toEqual(want);
    expect(pages).toBeGreaterThan(2);

    const sessionsFound: string[] = [];
    let key: { startTime: number; id: string } | undefined;
    for (;;) {
      const page = await search.sessions(project.id, { signal: 'tor' }, key, 50, 10);
      sessionsFound.push(...page.rows.map((r) => r.id));
      if (page.next === null) break;
      key = page.next;
    }
    expect(sessionsFound.sort()).toEqual(
      sessions
        .filter((s) => s.signals.includes('tor'))
        .map((s) => s.id)
        .sort(),
    );
  });
});

/** A strict RFC 4180 reader: quoted cells with doubled quotes, CRLF records; anything else throws. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let i = 0;
  while (i < text.length) {
    const row: string[] = [];
    for (;;) {
      let cell = '';
      if (text[i] === '"') {
        i++;
        for (;;) {
          if (i >= text.length) throw new Error('unterminated quote');
          if (text[i] === '"' && text[i + 1] === '"') ((cell += '"'), (i += 2));
          else if (text[i] === '"') {
            i++;
            break;
          } else cell += text[i++];
        }
      } else while (i < text.length && text[i] !== ',' && text[i] !== '\r' && text[i] !== '\n') cell += text[i++];
      row.push(cell);
      if (text[i] === ',') i++;
      else if (text.startsWith('\r\n', i)) {
        i += 2;
        break;
      } else throw new Error(`bad character at ${i}: ${JSON.stringify(text[i])}`);
    }
    rows.push(row);
  }
  return rows;
}

describe('exportAccounts', () => {
  test('when exported as CSV, then every selected account is a row, quoted, with formulas defused', async () => {
    // A name a spreadsheet would run, and a name with a comma and a quote.
    const { repos, evaluation } = ctx.services;
    const evil = evaluation.applyInput(
      project,
      undefined,
      { email: 'x@evil.test', first_name: '=HYPERLINK("http://x")', last_name: 'O"Neil, Jr' },
      'evil-1',
    );
    await repos.accounts.upsert(evil);
    const res = await get('/accounts/export', { format: 'csv' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['transfer-encoding']).toBe('chunked');
    const rows = parseCsv(res.text);
    expect(rows[0]).toEqual([
      'account_id',
      'email',
      'first_name',
      'last_name',
      'decision',
      'account_score',
      'num_sessions',
      'first_seen',
      'last_seen',
      'country',
      'lists',
      'created_at',
      'updated_at',
      'label',
    ]);
    const listed = await all<AccountSummary>('/accounts', { limit: 500 }, 'accounts');
    expect(rows.slice(1).map((r) => r[0])).toEqual(listed.map((a) => a.account.id));
    const row = rows.find((r) => r[0] === 'evil-1')!;
    expect(row[2]).toBe(`'=HYPERLINK("http://x")`);
    expect(row[3]).toBe('O"Neil, Jr');
    const vip = rows.find((r) => r[0] === 'acct-0003')!;
    expect(vip[10]).toBe('vip');
  });

  test('when exported as NDJSON with a filter, then each line is an account the list gives', async () => {
    const res = await get('/accounts/export', { format: 'ndjson', decision: 'Fake' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
    const lines = res.text.split('\n');
    expect(lines.pop()).toBe('');
    const listed = await all<AccountSummary>('/accounts', { limit: 3, decision: 'Fake' }, 'accounts');
    expect(lines.map((l) => JSON.parse(l) as AccountSummary)).toEqual(listed);
  });
});

describe('exportSessions', () => {
  test('when many sessions are exported, then the body is streamed in chunks and complete', async () => {
    const total = (await all<SessionSummary>('/sessions', { limit: 500 }, 'sessions')).length;
    const chunks: number[] = [];
    const res = await get('/sessions/export', { format: 'csv' })
      .buffer(true)
      .parse((r, done) => {
        let text = '';
        r.setEncoding('utf8');
        r.on('data', (c: string) => {
          chunks.push(c.length);
          text += c;
        });
        r.on('end', () => done(null, text));
      });
    expect(res.status).toBe(200);
    expect(res.headers['transfer-encoding']).toBe('chunked');
    expect(res.headers['content-length']).toBeUndefined();
    const rows = parseCsv(res.body as string);
    expect(rows.length).toBe(total + 1);
    expect(rows[1]![0]).toMatch(/^[0-9a-f-]{36}$/);
  });

  test('when more sessions than a batch are exported, then they are read a batch at a time and all sent', async () => {
    for (let i = 0; i < EXPORT_BATCH + 20; i++)
      sessions.push(
        await addSession(project, {
          startTime: NOW - 2000 * HOUR - i * 1000,
          deviceId: 'device-bulk',
          fingerprint: 'bulk',
          ip: '81.2.7.1',
          country: 'GB',
        }),
      );
    const reads = jest.spyOn(ctx.services.repos.search, 'sessions');
    try {
      const res = await get('/sessions/export', { format: 'ndjson', device_id: 'device-bulk' });
      expect(res.status).toBe(200);
      expect(res.headers['transfer-encoding']).toBe('chunked');
      const lines = res.text.trimEnd().split('\n');
      expect(lines.length).toBe(EXPORT_BATCH + 20);
      expect(new Set(lines.map((l) => (JSON.parse(l) as SessionSummary).session_id)).size).toBe(EXPORT_BATCH + 20);
      expect(reads.mock.calls.map((c) => c[3])).toEqual([EXPORT_BATCH, EXPORT_BATCH]);
    } finally {
      reads.mockRestore();
    }
  });

  test('when exported as NDJSON by signal, then the lines are the sessions the list gives', async () => {
    const res = await get('/sessions/export', { format: 'ndjson', signal: 'vpn' });
    expect(res.status).toBe(200);
    const lines = res.text
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as SessionSummary);
    expect(lines).toEqual(await all<SessionSummary>('/sessions', { signal: 'vpn' }, 'sessions'));
    expect(lines.every((s) => s.risk_signals.includes('vpn'))).toBe(true);
  });
});

describe('other projects', () => {
  test("when another project's key searches, then none of this project's accounts or sessions come", async () => {
    const other = await ctx.services.projects.create({ name: 'Other' });
    const otherProject = (await ctx.services.repos.projects.findById(other.project_id))!;
    await addSession(otherProject, {
      accountId: 'acct-0001',
      startTime: NOW,
      deviceId: 'device-1',
      fingerprint: 'x',
      ip: '81.2.1.2',
      country: 'GB',
    });
    const theirs = await get('/sessions', { device_id: 'device-1' }, other.api_key);
    expect(theirs.status).toBe(200);
    expect((theirs.body as SessionPage).sessions.map((s) => s.account_ids)).toEqual([['acct-0001']]);
    const accountsOfOther = await get('/accounts', { device_id: 'device-1' }, other.api_key);
    expect((accountsOfOther.body as AccountPage).accounts).toEqual([]);
    for (const path of ['/accounts', '/sessions']) {
      const res = await get(path, { ip_address: '81.2.1.2', limit: 500 }, other.api_key);
      expect(res.body[path.slice(1)].length).toBe(path === '/sessions' ? 1 : 0);
    }
    const exported = await get('/accounts/export', { format: 'ndjson' }, other.api_key);
    expect(exported.text).toBe('');
    // A cursor of this project's list does not reach into it from the other project.
    const mine = await get('/sessions', { limit: 1 });
    const res = await get('/sessions', { cursor: mine.body.next_cursor }, other.api_key);
    expect(res.status).toBe(200);
    expect((res.body as SessionPage).sessions.every((s) => s.device_id === 'device-1')).toBe(true);
  });

  test('when no API key is sent, then 401', async () => {
    expect((await request(ctx.app).get('/accounts')).status).toBe(401);
    expect((await request(ctx.app).get('/sessions/export?format=csv')).status).toBe(401);
  });
});

describe('bad input', () => {
  test.each([
    ['/accounts', { decision: 'Maybe' }, 'decision'],
    ['/accounts', { min_score: 2 }, 'min_score'],
    ['/accounts', { min_score: 0.8, max_score: 0.2 }, 'min_score'],
    ['/accounts', { limit: 501 }, 'limit'],
    ['/accounts', { limit: 0 }, 'limit'],
    ['/accounts', { country: 'gbr' }, 'country'],
    ['/accounts', { cursor: 'not a cursor!' }, 'cursor'],
    ['/accounts', { cursor: Buffer.from('{"s":[1,"x"]}').toString('base64url') }, 'cursor'],
    ['/accounts', { sort: 'risk' }, 'sort'],
    ['/accounts', { sort: 'score', cursor: 'not a cursor!' }, 'cursor'],
    ['/accounts', { sort: 'score', cursor: Buffer.from('{"a":["acct-0001"]}').toString('base64url') }, 'cursor'],
    ['/accounts', { sort: 'score', cursor: Buffer.from('{"r":[1.5,"acct-0001"]}').toString('base64url') }, 'cursor'],
    ['/accounts', { sort: 'score', cursor: Buffer.from('{"r":["0.5","acct-0001"]}').toString('base64url') }, 'cursor'],
    ['/accounts', { sort: 'score', cursor: Buffer.from('{"r":[0.5]}').toString('base64url') }, 'cursor'],
    ['/accounts', { cursor: Buffer.from('{"r":[0.5,"acct-0001"]}').toString('base64url') }, 'cursor'],
    ['/accounts', { signal: 'vpn' }, 'signal'],
    ['/accounts', { ip_address: '300.1.1.1' }, 'ip_address'],
    ['/accounts', { network: '81.2.3.0/16' }, 'network'],
    ['/accounts', { email: 'no-at-sign' }, 'email'],
    ['/sessions', { email: 'user1@gmail.com' }, 'email'],
    ['/sessions', { network: 'nonsense' }, 'network'],
    ['/sessions', { from: 'yesterday' }, 'from'],
    ['/sessions', { from: '2026-11-20T00:00:00Z', to: '2026-11-19T00:00:00Z' }, 'from'],
    ['/sessions', { signal: 'bogus' }, 'signal'],
    ['/sessions', { fingerprint: 'abc' }, 'fingerprint'],
    ['/sessions', { cursor: Buffer.from('{"s":["x","y"]}').toString('base64url') }, 'cursor'],
    ['/sessions/export', {}, 'format'],
    ['/sessions/export', { format: 'xlsx' }, 'format'],
    ['/accounts/export', { format: 'csv', limit: 10 }, 'limit'],
  ])('when %s gets %j, then 400 naming %s', async (path, query, name) => {
    const res = await get(path, query as Record<string, string | number>);
    expect(res.status).toBe(400);
    expect(res.body.statusCode).toBe(400);
    expect(res.body.message).toContain(name);
  });
});

describe('through the real evaluation path', () => {
  test('when a session is authenticated, then the searches find it with the evaluation it got', async () => {
    const evaluated = await scenario(ctx).signIn({ id: 'real-user', email: 'Real.User@RealPath.test' });
    const byEmail = await get('/accounts', { email: ' real.user@realpath.test ' });
    expect((byEmail.body as AccountPage).accounts.map((a) => a.account.id)).toEqual(['real-user']);
    // As a reader types it in a URL: the `@` sent as it is, or as %40.
    for (const written of ['real.user@realpath.test', 'real.user%40realpath.test']) {
      const raw = await request(ctx.app).get(`/accounts?email=${written}`).set('x-api-key', key);
      expect([raw.status, (raw.body as AccountPage).accounts?.map((a) => a.account.id)]).toEqual([200, ['real-user']]);
    }
    const accountsRes = await get('/accounts', { email_domain: 'realpath.test' });
    expect(accountsRes.status).toBe(200);
    expect((accountsRes.body as AccountPage).accounts).toEqual([
      expect.objectContaining({
        account: expect.objectContaining({ id: 'real-user', email: 'Real.User@RealPath.test' }),
        decision: evaluated.decision,
        account_score: evaluated.account_score,
        num_sessions: 1,
        country: 'GB',
      }),
    ]);
    const sessionsRes = await get('/sessions', { account_id: 'real-user', decision: evaluated.decision });
    expect((sessionsRes.body as SessionPage).sessions).toEqual([
      expect.objectContaining({
        session_id: evaluated.session_id,
        account_ids: ['real-user'],
        ip_address: LONDON_IP,
        decision: evaluated.decision,
        account_score: evaluated.account_score,
        risk_signals: (Object.keys(evaluated.session.risk_signals) as RiskSignalName[]).filter(
          (k) => evaluated.session.risk_signals[k as keyof typeof evaluated.session.risk_signals],
        ),
      }),
    ]);
    // The latest evaluation's request id (its receipt) and where the address is, for the console's account page.
    const [found] = (sessionsRes.body as SessionPage).sessions;
    expect(found!.evaluation_request_id).toBe(evaluated.request_id);
    // To 4 decimals (PostgreSQL keeps them as `real`).
    expect(found!.latitude).toBeCloseTo(evaluated.session.location.latitude!, 4);
    expect(found!.longitude).toBeCloseTo(evaluated.session.location.longitude!, 4);
    const receipt = await get(`/evaluation/${found!.evaluation_request_id}`, {});
    expect(receipt.status).toBe(200);
    expect(receipt.body).toMatchObject({ session_id: evaluated.session_id, account_id: 'real-user' });
    const exported = await get('/sessions/export', { format: 'csv', account_id: 'real-user' });
    expect(parseCsv(exported.text).map((r) => r[0])).toEqual(['session_id', evaluated.session_id]);
    // One session by its id (the console's session page): the same summary; with another account, none.
    const one = await get('/sessions', { session_id: evaluated.session_id });
    expect((one.body as SessionPage).sessions).toEqual([found]);
    const other = await get('/sessions', { session_id: evaluated.session_id, account_id: 'someone-else' });
    expect([other.status, (other.body as SessionPage).sessions]).toEqual([200, []]);
    const malformed = await get('/sessions', { session_id: 'NOT-A-UUID' });
    expect([malformed.status, malformed.body.message]).toEqual([400, expect.stringContaining('session_id')]);
  });
});

describe('an export that fails after its first bytes', () => {
  test('when a later batch cannot be read, then the response is cut off, never ended as if complete', async () => {
    const { search } = ctx.services.repos;
    const original = search.sessions;
    let calls = 0;
    const reads = jest.spyOn(search, 'sessions').mockImplementation(async (...a) => {
      if (++calls > 1) throw new Error('database gone');
      const page = await original(...a);
      return { ...page, next: page.next ?? { startTime: 0, id: '' } };
    });
    try {
      const outcome = await get('/sessions/export', { format: 'ndjson' }).then(
        () => 'ended',
        (e: { code?: string; message: string }) => e.code ?? e.message,
      );
      expect(outcome).not.toBe('ended');
      expect(calls).toBe(2);
      expect(ctx.logs.filter((l) => l.msg === 'export failed after its first bytes')).toHaveLength(1);
    } finally {
      reads.mockRestore();
    }
    // The server goes on answering.
    expect((await get('/sessions', { limit: 1 })).status).toBe(200);
  });
});

describe('an export the client leaves', () => {
  test('when the client goes away mid-export, then the export stops reading', async () => {
    const { search } = ctx.services.repos;
    const original = search.sessions;
    // Batches of 20 rows read 50 ms apart, so that the export has many left when the client goes.
    const reads = jest.spyOn(search, 'sessions').mockImplementation(async (p, f, after, _limit, window) => {
      await new Promise((resolve) => setTimeout(resolve, 50));
      return original(p, f, after, 20, window);
    });
    const server = ctx.app.listen(0, '127.0.0.1');
    try {
      await new Promise((resolve) => server.once('listening', resolve));
      const { port } = server.address() as AddressInfo;
      await new Promise<void>((resolve, reject) => {
        const req = http.get(
          { host: '127.0.0.1', port, path: '/sessions/export?format=ndjson', headers: { 'x-api-key': key } },
          (res) => {
            expect(res.statusCode).toBe(200);
            res.once('data', () => {
              req.destroy();
              resolve();
            });
          },
        );
        req.on('error', (e) => (e.message === 'socket hang up' ? undefined : reject(e)));
      });
      const total = Math.ceil(sessions.length / 20);
      // Long enough for the export to have read every batch had it gone on.
      await new Promise((resolve) => setTimeout(resolve, total * 50 + 200));
      expect(reads.mock.calls.length).toBeLessThan(total / 2);
      expect(ctx.logs.filter((l) => l.msg === 'export failed after its first bytes')).toHaveLength(1); // the earlier test's only
    } finally {
      reads.mockRestore();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
