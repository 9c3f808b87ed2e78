/**
 * The per-account devices and networks (migration 0035, `account_uniques`) on the real database:
 * kept by triggers as sessions are linked and as a linked session's device changes, rebuilt when
 * links are removed, forgotten with an erased account, backfilled by the migration; and read by
 * the evaluation (`uniques`) as exact counts past the 200 sessions it reads of an account.
 * Each check compares the kept rows with what the account's sessions say, computed here.
 */
import { randomUUID } from 'node:crypto';
import type { EvaluatedSession } from '../../src/api-types';
import { deviceOf, uniquesQuery, type PastSession } from '../../src/domain/evaluation';
import { DAY_MS } from '../../src/domain/numbers';
import type { SdkFacts } from '../../src/domain/session/sdk-facts';
import { dialectOf } from '../../src/storage/db';
import { migrationSource } from '../../src/storage/migrations';
import { makeAccountRepository } from '../../src/storage/repositories/accounts';
import { makeEvaluationReads } from '../../src/storage/evaluation/reads';
import { makeRetentionRepository } from '../../src/storage/repositories/retention';
import { makeSessionRepository } from '../../src/storage/repositories/sessions';
import { hotStatementsOf } from '../../src/storage/db';
import { insertProject, makeTestDb, type TestDb } from '../helpers/db';
import { at } from '../helpers/defined';
import { example } from '../helpers/spec';

let testDb: TestDb;
let template: EvaluatedSession;
const T = Date.parse('2026-11-20T12:00:00.000Z');
const HOUR = 3_600_000;

beforeAll(async () => {
  testDb = await makeTestDb();
  template = (await example<{ session: EvaluatedSession }>('AuthenticateResponseReal')).session;
});
afterAll(() => testDb.destroy());

/** What a test stored: each session's device and block and start, and the accounts it is linked to. */
interface Stored {
  projectId: string;
  sessions: Map<string, { device?: string; block?: string; start: number; accounts: Set<string> }>;
}

async function project(): Promise<Stored> {
  const projectId = randomUUID();
  await insertProject(testDb.db, projectId, 'uniques', new Date(T));
  return { projectId, sessions: new Map() };
}

const sessions = () => makeSessionRepository(testDb.db);

/** A session `hoursAgo` before T from `ip`, with the SDK's facts `sdk`. */
async function storeSession(p: Stored, sdk: SdkFacts, ip: string, hoursAgo: number): Promise<string> {
  const id = randomUUID();
  const start = new Date(T - hoursAgo * HOUR);
  const facts = {
    ...structuredClone(template),
    device_id: sdk.device_id,
    network: { ...template.network, ip_address: ip },
  };
  await sessions().insert({
    id,
    projectId: p.projectId,
    ipAddress: ip,
    startTime: start,
    updatedAt: start,
    facts,
    sdk,
  });
  const row = await testDb.db('sessions').where({ id }).first('ip_block');
  p.sessions.set(id, {
    device: deviceOfSdk(sdk),
    block: row.ip_block ?? undefined,
    start: start.getTime(),
    accounts: new Set(),
  });
  return id;
}

function deviceOfSdk(sdk: SdkFacts): string | undefined {
  return deviceOf({
    deviceId: sdk.device_id,
    browserFingerprint: sdk.browser_fingerprint,
    mobileId: sdk.mobile?.mobile_id,
  } as PastSession);
}

async function link(p: Stored, sessionId: string, accountId: string): Promise<void> {
  await testDb.db.transaction((trx) => sessions().addAccount(p.projectId, sessionId, accountId, new Date(T), trx));
  p.sessions.get(sessionId)!.accounts.add(accountId);
}

/** The rows the account's sessions call for: each device and block with its newest session's start. */
function expected(p: Stored, accountId: string): string[] {
  const newest = new Map<string, number>();
  for (const s of p.sessions.values()) {
    if (!s.accounts.has(accountId)) continue;
    for (const [kind, value] of [
      ['device', s.device],
      ['network', s.block],
    ] as const)
      if (value) newest.set(`${kind} ${value}`, Math.max(newest.get(`${kind} ${value}`) ?? 0, s.start));
  }
  return [...newest].map(([k, start]) => `${k} ${start}`).sort();
}

async function kept(p: Stored, accountId: string): Promise<string[]> {
  const rows = await testDb
    .db('account_uniques')
    .where({ project_id: p.projectId, account_id: accountId })
    .select('kind', 'value', 'last_start');
  return rows.map((r) => `${r.kind} ${r.value} ${Number(r.last_start)}`).sort();
}

describe('account_uniques', () => {
  test('when sessions are linked, then each device (the fingerprint, else the mobile id, else the stored id) and block is kept with its newest start', async () => {
    const p = await project();
    const a = await storeSession(
      p,
      { source: 'web', device_id: 'profile-1', browser_fingerprint: 'fp-laptop' },
      '81.2.69.10',
      30,
    );
    const b = await storeSession(
      p,
      { source: 'web', device_id: 'profile-2', browser_fingerprint: 'fp-laptop' },
      '81.2.69.11',
      2,
    );
    const c = await storeSession(
      p,
      { source: 'ios', device_id: 'install-1', mobile: { mobile_id: 'vendor-1' } } as SdkFacts,
      '2001:db8:1:2::5',
      5,
    );
    const d = await storeSession(p, { source: 'web', device_id: 'browser-9' }, '81.2.70.1', 50);
    for (const s of [a, b, c, d]) await link(p, s, 'acct-1');
    await link(p, a, 'acct-2');
    // Linked again: nothing changes.
    await link(p, b, 'acct-1');
    expect(await kept(p, 'acct-1')).toEqual(expected(p, 'acct-1'));
    expect((await kept(p, 'acct-1')).filter((r) => r.startsWith('device'))).toEqual([
      `device browser-9 ${T - 50 * HOUR}`,
      `device fp-laptop ${T - 2 * HOUR}`,
      `device vendor-1 ${T - 5 * HOUR}`,
    ]);
    expect(await kept(p, 'acct-2')).toEqual(expected(p, 'acct-2'));
  });

  test("when a linked session's device changes, then the new one counts and the old one goes where no other session carries it", async () => {
    const p = await project();
    const lone = await storeSession(p, { source: 'web', device_id: 'browser-1' }, '81.2.69.10', 3);
    const other = await storeSession(
      p,
      { source: 'web', device_id: 'browser-2', browser_fingerprint: 'fp-1' },
      '81.2.69.10',
      10,
    );
    const same = await storeSession(
      p,
      { source: 'web', device_id: 'browser-3', browser_fingerprint: 'fp-1' },
      '81.2.69.10',
      1,
    );
    for (const s of [lone, other, same]) await link(p, s, 'acct-1');
    await link(p, same, 'acct-2');
    // A later post brings a fingerprint to `lone` (its stored id was its device), and moves `same` off fp-1.
    for (const [id, sdk] of [
      [lone, { source: 'web', device_id: 'browser-1', browser_fingerprint: 'fp-2' }],
      [same, { source: 'web', device_id: 'browser-3', browser_fingerprint: 'fp-3' }],
    ] as const) {
      const s = p.sessions.get(id)!;
      await testDb.db.transaction((trx) =>
        sessions().update(
          {
            id,
            projectId: p.projectId,
            ipAddress: '81.2.69.10',
            startTime: new Date(s.start),
            updatedAt: new Date(T),
            facts: { ...structuredClone(template), device_id: sdk.device_id },
            sdk,
          },
          trx,
        ),
      );
      s.device = deviceOfSdk(sdk);
    }
    // acct-1: browser-1 gone (only `lone` had it), fp-1 kept from `other` (its start now), fp-2 and fp-3 new.
    expect(await kept(p, 'acct-1')).toEqual(expected(p, 'acct-1'));
    expect((await kept(p, 'acct-1')).filter((r) => r.startsWith('device'))).toEqual([
      `device fp-1 ${T - 10 * HOUR}`,
      `device fp-2 ${T - 3 * HOUR}`,
      `device fp-3 ${T - 1 * HOUR}`,
    ]);
    // acct-2 had fp-1 from `same` alone: gone.
    expect(await kept(p, 'acct-2')).toEqual(expected(p, 'acct-2'));
  });

  test('when sessions are removed by retention, then the accounts are rebuilt from the sessions left; an erased account keeps none', async () => {
    const p = await project();
    const ids: string[] = [];
    for (let i = 0; i < 6; i++)
      ids.push(
        await storeSession(p, { source: 'web', device_id: `browser-${i % 3}` }, `81.2.${60 + i}.1`, 100 - i * 10),
      );
    for (const id of ids) await link(p, id, 'acct-1');
    for (const id of ids.slice(0, 2)) await link(p, id, 'acct-2');
    const gone = ids.slice(0, 4);
    await testDb.db.transaction(async (trx) => {
      const { accounts } = await makeRetentionRepository(testDb.db).removeSessions(p.projectId, gone, trx);
      await makeAccountRepository(testDb.db).refreshAggregates(p.projectId, accounts, trx);
    });
    for (const id of gone) p.sessions.delete(id);
    expect(await kept(p, 'acct-1')).toEqual(expected(p, 'acct-1'));
    expect(await kept(p, 'acct-2')).toEqual([]);
    await testDb.db.transaction((trx) => makeAccountRepository(testDb.db).delete(p.projectId, 'acct-1', trx));
    expect(await kept(p, 'acct-1')).toEqual([]);
  });

  test('when the migration runs on stored links, then it keeps what the triggers keep', async () => {
    const p = await project();
    for (let i = 0; i < 8; i++) {
      const id = await storeSession(
        p,
        { source: 'web', device_id: `browser-${i % 3}` },
        `81.2.${50 + (i % 4)}.1`,
        i * 7,
      );
      await link(p, id, `acct-${i % 2}`);
    }
    const before = [...(await kept(p, 'acct-0')), ...(await kept(p, 'acct-1'))];
    expect(before).toEqual([...expected(p, 'acct-0'), ...expected(p, 'acct-1')]);
    // (0036 rebuilt the table and 0037 its triggers after 0035: rolled back first, run again last.)
    const later = ['0037_session_device', '0036_lean_link_writes'];
    for (const name of later) await testDb.db.migrate.down({ migrationSource, name });
    await testDb.db.migrate.down({ migrationSource, name: '0035_account_uniques' });
    await testDb.db.migrate.up({ migrationSource, name: '0035_account_uniques' });
    for (const name of [...later].reverse()) await testDb.db.migrate.up({ migrationSource, name });
    expect([...(await kept(p, 'acct-0')), ...(await kept(p, 'acct-1'))]).toEqual(before);
  });

  test('when 0036 rebuilds the table (SQLite: without a rowid) and is rolled back, then the rows and the triggers stay', async () => {
    const p = await project();
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      ids.push(
        await storeSession(p, { source: 'web', device_id: `browser-${i % 4}` }, `81.2.${60 + (i % 3)}.1`, i * 5),
      );
      if (i < 4) await link(p, at(ids, i), `acct-${i % 2}`);
    }
    const both = async () => [...(await kept(p, 'acct-0')), ...(await kept(p, 'acct-1'))];
    const before = await both();
    expect(before).toEqual([...expected(p, 'acct-0'), ...expected(p, 'acct-1')]);
    const withoutRowid = async () =>
      testDb.dialect === 'sqlite'
        ? /WITHOUT ROWID\s*$/i.test(
            (await testDb.db('sqlite_master').where({ type: 'table', name: 'account_uniques' }).first('sql')).sql,
          )
        : false;
    expect(await withoutRowid()).toBe(testDb.dialect === 'sqlite');

    await testDb.db.migrate.down({ migrationSource, name: '0036_lean_link_writes' });
    expect(await withoutRowid()).toBe(false);
    expect(await both()).toEqual(before);
    await link(p, at(ids, 4), 'acct-0');
    expect(await kept(p, 'acct-0')).toEqual(expected(p, 'acct-0'));

    await testDb.db.migrate.up({ migrationSource, name: '0036_lean_link_writes' });
    expect(await withoutRowid()).toBe(testDb.dialect === 'sqlite');
    expect(await kept(p, 'acct-0')).toEqual(expected(p, 'acct-0'));
    // The link trigger, made again, writes into the rebuilt table.
    await link(p, at(ids, 5), 'acct-1');
    expect(await both()).toEqual([...expected(p, 'acct-0'), ...expected(p, 'acct-1')]);
  });

  test("when an account has more than 200 sessions in a week, then the evaluation's read counts every device of the day and of the week", async () => {
    const p = await project();
    // 230 sessions over six days on 230 devices, and 40 more on the first device within the day.
    const rows: { id: string; start: number; device: string }[] = [];
    for (let i = 0; i < 270; i++) {
      const id = randomUUID();
      const start = T - (i < 230 ? i * 30 * 60_000 : (i - 229) * 60_000);
      const device = i < 230 ? `browser-${i}` : 'browser-0';
      rows.push({ id, start, device });
      p.sessions.set(id, { device, block: '81.2.69.0/24', start, accounts: new Set(['acct-big']) });
    }
    const sessionRows = rows.map((r) => ({
      id: r.id,
      project_id: p.projectId,
      source: 'web',
      device_id: r.device,
      ip_address: '81.2.69.1',
      ip_block: '81.2.69.0/24',
      start_time: r.start,
      updated_at: r.start,
      device: r.device,
    }));
    for (let i = 0; i < sessionRows.length; i += 100) await testDb.db('sessions').insert(sessionRows.slice(i, i + 100));
    const linkRows = rows.map((r) => ({
      session_id: r.id,
      project_id: p.projectId,
      account_id: 'acct-big',
      created_at: r.start,
      session_start: r.start,
      ip_address: '81.2.69.1',
      ip_block: '81.2.69.0/24',
    }));
    for (let i = 0; i < linkRows.length; i += 100)
      await testDb.db('session_accounts').insert(linkRows.slice(i, i + 100));
    expect(await kept(p, 'acct-big')).toEqual(expected(p, 'acct-big'));

    const reads = makeEvaluationReads(hotStatementsOf(testDb.db).rows, dialectOf(testDb.db));
    const current = {
      id: 'now',
      startTime: new Date(T),
      deviceId: 'browser-new',
      ipAddress: '81.2.69.1',
      ipBlock: '81.2.69.0/24',
    } satisfies PastSession;
    const query = uniquesQuery('acct-big', new Date(T), new Date(T), current);
    const stored = await reads.uniques(p.projectId, query);
    // Within a day of T: the devices of the sessions started in it (48 at 30-minute steps, the
    // first included); within the week: all 230.
    const inWindow = (days: number) =>
      new Set(rows.filter((r) => r.start >= T - days * DAY_MS).map((r) => r.device)).size;
    expect(stored.devices).toEqual({ '1_day': inWindow(1), '7_day': inWindow(7) });
    expect(stored.devices['7_day']).toBe(230);
    expect(stored.networks).toEqual({ '1_day': 1, '7_day': 1 });
    expect(stored.deviceLastStart).toBeUndefined();
    expect(stored.networkLastStart).toEqual(new Date(T));
  });
});
