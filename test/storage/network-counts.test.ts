/**
 * The counts read's questions about an address (storage/evaluation/reads.ts `counts`), on the
 * real database: Fake sessions and block-listed accounts on the address in 30 days and of all
 * time, the same on its block's other addresses, and the accounts seen there, each counted as
 * far as the signals tell counts apart (COUNTED_UP_TO) and no further. The accounts come from
 * `network_accounts`, which the database's triggers keep from the links and the block list
 * (migration 0042): these cases write links and memberships the way any writer does and check
 * what the counts then see, including after a membership ends and after links are deleted.
 */
import { randomUUID } from 'node:crypto';
import { DAY_MS } from '../../src/domain/numbers';
import { sharersToRead } from '../../src/domain/evaluation';
import { COUNTED_UP_TO } from '../../src/domain/signals/history';
import { dialectOf, hotStatementsOf } from '../../src/storage/db';
import { makeEvaluationReads } from '../../src/storage/evaluation/reads';
import { migrationSource } from '../../src/storage/migrations';
import { insertProject, makeTestDb, type TestDb } from '../helpers/db';

let testDb: TestDb;
const projectId = randomUUID();
const NOW = new Date('2026-11-26T12:00:00.000Z');

beforeAll(async () => {
  testDb = await makeTestDb();
  await insertProject(testDb.db, projectId, 'network counts', NOW);
});
afterAll(() => testDb.destroy());

interface Seen {
  /** Days before NOW (fractions allowed); each session of a group a minute older than the one before. */
  daysAgo: number;
  count: number;
  fake?: boolean;
  /** The account each session is linked to (a function of its index in the group). */
  account?: (i: number) => string;
  /** The group's one session's id (the evaluated session). */
  id?: string;
  block?: string;
}

/** Sessions (and their links) on `ip`, in the groups given; returns the sessions' ids. */
async function seed(ip: string, groups: Seen[]): Promise<string[]> {
  const sessions: Record<string, unknown>[] = [];
  const links: Record<string, unknown>[] = [];
  for (const g of groups)
    for (let i = 0; i < g.count; i++) {
      const id = g.id ?? randomUUID();
      const start = NOW.getTime() - Math.round(g.daysAgo * DAY_MS) - i * 60_000;
      const network = { ip_address: ip, ip_block: g.block ?? null };
      sessions.push({
        id,
        project_id: projectId,
        device_id: `dev-${id}`,
        ...network,
        start_time: start,
        updated_at: start,
        decision: g.fake ? 'Fake' : 'Real',
      });
      const account = g.account?.(i);
      if (account)
        links.push({
          session_id: id,
          project_id: projectId,
          account_id: account,
          created_at: start,
          session_start: start,
          ...network,
        });
    }
  await testDb.db.batchInsert('sessions', sessions, 200);
  await testDb.db.batchInsert('session_accounts', links, 200);
  return sessions.map((s) => String(s.id));
}

const block = (...accounts: string[]) =>
  testDb.db.batchInsert(
    'list_members',
    accounts.map((account_id) => ({ project_id: projectId, list_name: 'block', account_id, added_at: NOW.getTime() })),
    100,
  );

const countsOf = async (ip: string, sessionId: string = randomUUID(), ipBlock?: string) =>
  (
    await makeEvaluationReads(hotStatementsOf(testDb.db).rows, dialectOf(testDb.db)).counts(projectId, {
      sessionId,
      ip,
      now: NOW,
      ...(ipBlock ? { block: ipBlock } : {}),
    })
  ).network;

describe('the counts of an address', () => {
  test('when an address has many Fake sessions in and before the 30 days, then each period counts them up to where the signals stop telling them apart, the evaluated one never', async () => {
    const evaluated = randomUUID();
    await seed('203.0.113.1', [
      { daysAgo: 0, count: 1, fake: true, id: evaluated },
      { daysAgo: 0.01, count: 300 },
      { daysAgo: 3, count: 30, fake: true },
      { daysAgo: 40, count: 20, fake: true },
    ]);
    const n = await countsOf('203.0.113.1', evaluated);
    expect(n.fraudOnIp).toBe(COUNTED_UP_TO.fraudOnIp);
    expect(n.ipFakeSessions).toBe(COUNTED_UP_TO.ipFakeSessions);

    // Fewer than that: the 30 days count none, all time each one; the evaluated session alone is nothing.
    const [alone] = await seed('203.0.113.2', [{ daysAgo: 0, count: 1, fake: true }]);
    await seed('203.0.113.2', [
      { daysAgo: 1, count: 100 },
      { daysAgo: 40, count: 2, fake: true },
    ]);
    const m = await countsOf('203.0.113.2', alone);
    expect(m.fraudOnIp).toBe(0);
    expect(m.ipFakeSessions).toBe(2);
  });

  test('when block-listed accounts were seen in and before the 30 days, then each period counts each distinct one, up to the signals’ limit', async () => {
    const ip = '198.51.100.7';
    await block('acct-recent', 'acct-old', 'acct-both');
    await seed(ip, [
      { daysAgo: 1, count: 3, account: () => 'acct-recent' },
      { daysAgo: 2, count: 1, account: () => 'acct-both' },
      { daysAgo: 3, count: 500, account: (i) => `acct-clean-${i % 7}` },
      { daysAgo: 40, count: 2, account: () => 'acct-old' },
      { daysAgo: 41, count: 1, account: () => 'acct-both' },
    ]);
    const n = await countsOf(ip);
    expect(n.fraudOnIp).toBe(1); // acct-recent and acct-both: there is fraud, as far as that signal asks
    expect(n.ipBlockedAccounts).toBe(3);
    expect(n.ipDistinctAccounts).toBe(9);

    // Listed after its links were written, an account counts; off the list, it no longer does.
    await block('acct-clean-0', 'acct-clean-1');
    expect((await countsOf(ip)).ipBlockedAccounts).toBe(COUNTED_UP_TO.ipBlockedAccounts);
    await testDb
      .db('list_members')
      .where({ project_id: projectId, list_name: 'block' })
      .whereIn('account_id', ['acct-clean-0', 'acct-clean-1', 'acct-both'])
      .delete();
    expect((await countsOf(ip)).ipBlockedAccounts).toBe(2);
  });

  test('when a NAT carries thousands of accounts, then the accounts on it count up to the signals’ limit, those of the 30 days only', async () => {
    const ip = '192.0.2.200';
    await seed(ip, [
      { daysAgo: 0.5, count: 400, account: (i) => `nat-${i}` },
      { daysAgo: 45, count: 400, account: (i) => `nat-old-${i}` },
    ]);
    expect((await countsOf(ip)).ipDistinctAccounts).toBe(COUNTED_UP_TO.ipDistinctAccounts);
    const quiet = '192.0.2.201';
    await seed(quiet, [
      { daysAgo: 0.5, count: 4, account: (i) => `home-${i % 2}` },
      { daysAgo: 45, count: 50, account: (i) => `gone-${i}` },
    ]);
    expect((await countsOf(quiet)).ipDistinctAccounts).toBe(2);
  });

  test('when an account’s newest link on an address is deleted (retention, erasure), then it counts from the newest left, and not at all when none is', async () => {
    const ip = '192.0.2.77';
    await block('acct-aging');
    const [recent] = await seed(ip, [{ daysAgo: 1, count: 1, account: () => 'acct-aging' }]);
    const [old] = await seed(ip, [{ daysAgo: 50, count: 1, account: () => 'acct-aging' }]);
    expect(await countsOf(ip)).toMatchObject({ fraudOnIp: 1, ipBlockedAccounts: 1, ipDistinctAccounts: 1 });

    await testDb.db('session_accounts').where({ session_id: recent }).delete();
    expect(await countsOf(ip)).toMatchObject({ fraudOnIp: 0, ipBlockedAccounts: 1, ipDistinctAccounts: 0 });
    await testDb.db('session_accounts').where({ session_id: old }).delete();
    expect(await countsOf(ip)).toMatchObject({ fraudOnIp: 0, ipBlockedAccounts: 0, ipDistinctAccounts: 0 });
    expect(await testDb.db('network_accounts').where({ project_id: projectId, account_id: 'acct-aging' })).toEqual([]);
  });
});

describe('the counts of a block', () => {
  test('when Fake sessions and block-listed accounts are on the block, then only those of its other addresses count, up to two', async () => {
    const net = '100.64.9.0/24';
    const here = '100.64.9.1';
    await block('acct-neighbour', 'acct-here');
    await seed(here, [
      { daysAgo: 1, count: 5, fake: true, block: net },
      { daysAgo: 1, count: 1, account: () => 'acct-here', block: net },
    ]);
    expect((await countsOf(here, randomUUID(), net)).fraudOnBlock).toBe(0);

    await seed('100.64.9.2', [{ daysAgo: 2, count: 1, fake: true, block: net }]);
    expect((await countsOf(here, randomUUID(), net)).fraudOnBlock).toBe(1);
    await seed('100.64.9.3', [{ daysAgo: 2, count: 1, account: () => 'acct-neighbour', block: net }]);
    expect((await countsOf(here, randomUUID(), net)).fraudOnBlock).toBe(2);
    await seed('100.64.9.4', [{ daysAgo: 3, count: 10, fake: true, block: net }]);
    // Eleven Fake sessions on other addresses count two; the block-listed neighbour one more.
    expect((await countsOf(here, randomUUID(), net)).fraudOnBlock).toBe(COUNTED_UP_TO.fraudOnBlock + 1);
  });
});

/** The accounts the link search finds on `ip` (and `ipBlock`) in windows of `ipDays` and `blockDays` around `daysAgo`. */
async function linkedOn(
  ip: string,
  at: { daysAgo: number; ipDays: number; blockDays?: number; ipBlock?: string; self?: string },
) {
  const start = NOW.getTime() - at.daysAgo * DAY_MS;
  const around = (days: number) => ({ from: new Date(start - days * DAY_MS), to: new Date(start + days * DAY_MS) });
  const ipWindow = around(at.ipDays);
  const blockWindow = around(at.blockDays ?? 0);
  const found = await makeEvaluationReads(hotStatementsOf(testDb.db).rows, dialectOf(testDb.db)).links(projectId, {
    identifiers: [],
    networks: [
      {
        sessionId: randomUUID(),
        ip,
        ...(at.ipBlock ? { block: at.ipBlock } : {}),
        ipFrom: ipWindow.from,
        ipTo: ipWindow.to,
        blockFrom: blockWindow.from,
        blockTo: blockWindow.to,
      },
    ],
    ...(at.self ? { excludeAccount: at.self } : {}),
  });
  const [network] = found.networks;
  return { onIp: [...network!.onIp].sort(), onBlock: [...network!.onBlock].sort() };
}

describe('the accounts the link search finds on an address and a block', () => {
  test('when accounts were seen before, in and after a past window, then those seen in it are found, and only they', async () => {
    const ip = '192.0.2.150';
    await seed(ip, [
      { daysAgo: 1, count: 1, account: () => 'acct-in-and-after' },
      { daysAgo: 1, count: 1, account: () => 'acct-after' },
      { daysAgo: 1, count: 1, account: () => 'acct-around' },
      { daysAgo: 9, count: 1, account: () => 'acct-in' },
      { daysAgo: 9.5, count: 1, account: () => 'acct-in-and-after' },
      { daysAgo: 9.5, count: 1, account: () => 'acct-self' },
      { daysAgo: 12, count: 1, account: () => 'acct-before' },
      { daysAgo: 12, count: 1, account: () => 'acct-around' },
    ]);
    // The window of a session nine days old: from ten to eight days ago.
    expect((await linkedOn(ip, { daysAgo: 9, ipDays: 1, self: 'acct-self' })).onIp).toEqual([
      'acct-in',
      'acct-in-and-after',
    ]);
    // A live session's window: everyone seen in the day before.
    expect((await linkedOn(ip, { daysAgo: 0, ipDays: 1 })).onIp).toEqual([
      'acct-after',
      'acct-around',
      'acct-in-and-after',
    ]);
  });

  test('when a NAT and its block carry hundreds of accounts in the window, then each is read up to one past the network crowd limit', async () => {
    const ip = '192.0.2.160';
    const net = '192.0.2.0/24';
    await seed(ip, [{ daysAgo: 0.2, count: 300, account: (i) => `crowd-${i % 150}`, block: net }]);
    await seed('192.0.2.161', [{ daysAgo: 0.2, count: 5, account: (i) => `next-door-${i}`, block: net }]);
    const found = await linkedOn(ip, { daysAgo: 0.2, ipDays: 1, blockDays: 1 / 24, ipBlock: net });
    expect(found.onIp).toHaveLength(sharersToRead('network'));
    expect(found.onBlock).toHaveLength(sharersToRead('network'));
    // Outside the block's hour around the session, nobody.
    expect(await linkedOn(ip, { daysAgo: 2, ipDays: 1 / 24, blockDays: 1 / 24, ipBlock: net })).toEqual({
      onIp: [],
      onBlock: [],
    });
  });
});

describe('migration 0042', () => {
  test('when it runs on stored links and memberships, then it backfills the rows the triggers keep', async () => {
    const rowsNow = () =>
      testDb.db('network_accounts').where({ project_id: projectId }).orderBy(['network', 'account_id']).select();
    const kept = await rowsNow();
    expect(kept.length).toBeGreaterThan(800);
    await testDb.db.migrate.down({ migrationSource, name: '0042_network_accounts' });
    expect(await testDb.db.schema.hasTable('network_accounts')).toBe(false);
    await testDb.db.migrate.up({ migrationSource, name: '0042_network_accounts' });
    expect(await rowsNow()).toEqual(kept);
  });
});
