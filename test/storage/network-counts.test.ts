/**
 * The counts read's questions about an address (storage/evaluation/reads.ts `counts`), on
 * the real database: Fake sessions and block-listed accounts in 30 days and of all time, each
 * over the address's newest NETWORK_HISTORY_SCAN sessions (or links) of the period, the evaluated
 * session left out. The two periods are answered from one read of the address's newest of all
 * time; these cases put what each period counts on both sides of the scan's edge and of the 30
 * days, where a read of the wrong window would count differently.
 */
import { randomUUID } from 'node:crypto';
import { DAY_MS } from '../../src/domain/numbers';
import { NETWORK_HISTORY_SCAN } from '../../src/domain/signals/history';
import { dialectOf, hotStatementsOf } from '../../src/storage/db';
import { makeEvaluationReads } from '../../src/storage/evaluation/reads';
import { insertProject, makeTestDb, type TestDb } from '../helpers/db';

let testDb: TestDb;
const projectId = randomUUID();
const NOW = new Date('2026-11-26T12:00:00.000Z');
const EVALUATED = randomUUID();

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
}

/** Sessions (and their links) on `ip`, in the groups given. */
async function seed(ip: string, groups: Seen[]): Promise<void> {
  const sessions: Record<string, unknown>[] = [];
  const links: Record<string, unknown>[] = [];
  for (const g of groups)
    for (let i = 0; i < g.count; i++) {
      const id = g.id ?? randomUUID();
      const start = NOW.getTime() - Math.round(g.daysAgo * DAY_MS) - i * 60_000;
      sessions.push({
        id,
        project_id: projectId,
        device_id: `dev-${id}`,
        ip_address: ip,
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
          ip_address: ip,
        });
    }
  await testDb.db.batchInsert('sessions', sessions, 200);
  await testDb.db.batchInsert('session_accounts', links, 200);
}

const countsOf = async (ip: string, sessionId: string) =>
  (
    await makeEvaluationReads(hotStatementsOf(testDb.db).rows, dialectOf(testDb.db)).counts(projectId, {
      sessionId,
      ip,
      now: NOW,
    })
  ).network;

describe('the counts of an address', () => {
  test('when Fake sessions lie on both sides of the scan’s edge and of the 30 days, then each period counts those among its own newest sessions', async () => {
    // Newest first: the evaluated session (Fake, never counted), 1,490 Real in the last day,
    // then 10 Fake (the scan's last), then 30 Fake past the edge (still within 30 days), then 20
    // Fake 40 days ago (past the edge too).
    const scan = NETWORK_HISTORY_SCAN;
    const evaluated = randomUUID();
    await seed('203.0.113.1', [
      { daysAgo: 0, count: 1, fake: true, id: evaluated },
      { daysAgo: 0.01, count: scan - 10 },
      { daysAgo: 2, count: 10, fake: true },
      { daysAgo: 3, count: 30, fake: true },
      { daysAgo: 40, count: 20, fake: true },
    ]);
    const n = await countsOf('203.0.113.1', evaluated);
    expect(n.fraudOnIp).toBe(10);
    expect(n.ipFakeSessions).toBe(10);

    // Fewer than the scan: the 30 days count theirs, all time every one.
    await seed('203.0.113.2', [
      { daysAgo: 0, count: 1, fake: true },
      { daysAgo: 1, count: 100 },
      { daysAgo: 5, count: 5, fake: true },
      { daysAgo: 40, count: 50, fake: true },
    ]);
    const m = await countsOf('203.0.113.2', randomUUID());
    expect(m.fraudOnIp).toBe(6);
    expect(m.ipFakeSessions).toBe(56);
  });

  test('when block-listed accounts were seen in and before the 30 days, and past the scan’s edge, then each period counts each distinct one of its newest links once', async () => {
    await testDb.db.batchInsert(
      'list_members',
      ['acct-recent', 'acct-old', 'acct-both', 'acct-edge'].map((account_id) => ({
        project_id: projectId,
        list_name: 'block',
        account_id,
        added_at: NOW.getTime(),
      })),
      100,
    );
    const ip = '198.51.100.7';
    const evaluated = randomUUID();
    const scan = NETWORK_HISTORY_SCAN;
    await seed(ip, [
      // The evaluated session, of a block-listed account seen otherwise only past the edge.
      { daysAgo: 0, count: 1, account: () => 'acct-edge', id: evaluated },
      // In the 30 days: three links of a block-listed account, one of another seen before too.
      { daysAgo: 1, count: 3, account: () => 'acct-recent' },
      { daysAgo: 2, count: 1, account: () => 'acct-both' },
      { daysAgo: 3, count: 500, account: (i) => `acct-clean-${i % 7}` },
      // Before the 30 days: a block-listed account, and the one seen in both again.
      { daysAgo: 40, count: 2, account: () => 'acct-old' },
      { daysAgo: 41, count: 1, account: () => 'acct-both' },
      { daysAgo: 42, count: scan, account: (i) => `acct-clean-${i % 7}` },
      // Past the scan's edge (the newest 1,500 other than the evaluated session's): never counted.
      { daysAgo: 90, count: 4, account: () => 'acct-edge' },
    ]);
    const n = await countsOf(ip, evaluated);
    // 30 days: acct-recent and acct-both (no Fake session).
    expect(n.fraudOnIp).toBe(2);
    // All time: those and acct-old.
    expect(n.ipBlockedAccounts).toBe(3);
  });
});
