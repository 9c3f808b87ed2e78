/**
 * The link search's write-time aggregates (migration 0013) on the real database: the accounts of
 * each identifier value (identifier_accounts) and each link's copy of its session's address,
 * kept by the repositories that write the rows they summarise.
 */
import { randomUUID } from 'node:crypto';
import type { EvaluatedSession } from '../../src/api-types';
import type { SdkFacts } from '../../src/domain/session/sdk-facts';
import { makeAccountRepository } from '../../src/storage/repositories/accounts';
import { keptPerValue, rebuildIdentifierAccounts } from '../../src/storage/repositories/identifier-accounts';
import { makeSessionRepository } from '../../src/storage/repositories/sessions';
import { insertProject, makeTestDb, type TestDb } from '../helpers/db';
import { example } from '../helpers/spec';

let testDb: TestDb;
let template: EvaluatedSession;
const projectId = randomUUID();
const T = new Date('2026-11-20T12:00:00.000Z');

beforeAll(async () => {
  testDb = await makeTestDb();
  await insertProject(testDb.db, projectId, 'aggregates', T);
  template = (await example<{ session: EvaluatedSession }>('AuthenticateResponseReal')).session;
});
afterAll(() => testDb.destroy());

const sessions = () => makeSessionRepository(testDb.db);

async function storeSession(sdk: SdkFacts, ip = '81.2.69.160'): Promise<string> {
  const id = randomUUID();
  const facts = {
    ...structuredClone(template),
    device_id: sdk.device_id,
    network: { ...template.network, ip_address: ip },
  };
  await sessions().insert({ id, projectId, ipAddress: ip, startTime: T, updatedAt: T, facts, sdk });
  return id;
}

async function link(sessionId: string, accountId: string): Promise<void> {
  await testDb.db.transaction((trx) => sessions().addAccount(projectId, sessionId, accountId, T, trx));
}

const kept = async (where: Record<string, string> = {}) =>
  (await testDb
    .db('identifier_accounts')
    .where({ project_id: projectId, ...where })
    .orderBy(['kind', 'value', 'account_id'])
    .select('kind', 'value', 'account_id')) as {
    kind: string;
    value: string;
    account_id: string;
  }[];

describe('identifier_accounts', () => {
  test('when a session is linked to an account, then each identifier it carries counts that account, once however many sessions carry it', async () => {
    const s1 = await storeSession({ source: 'web', device_id: 'dev-a', browser_fingerprint: 'fp-a' });
    const s2 = await storeSession({ source: 'web', device_id: 'dev-a', browser_fingerprint: 'fp-a' });
    await link(s1, 'acct-a');
    await link(s2, 'acct-a');
    await link(s2, 'acct-a');
    expect(await kept({ account_id: 'acct-a' })).toEqual([
      // The stored id is the browser instance, the fingerprint the device.
      { kind: 'browser', value: 'dev-a', account_id: 'acct-a' },
      { kind: 'device', value: 'fp-a', account_id: 'acct-a' },
    ]);
  });

  test('when a native session is linked, then its mobile id and DeviceCheck key (as its SHA-256) count too', async () => {
    const s = await storeSession({
      source: 'ios',
      device_id: 'dev-m',
      mobile: { mobile_id: 'mob-1', apple_device_check: 'token-1' },
    } as SdkFacts);
    await link(s, 'acct-m');
    const rows = await kept({ account_id: 'acct-m' });
    // The app's stored id is its install, as a browser's is its instance: a browser match.
    expect(rows.map((r) => r.kind)).toEqual(['apple_device_check', 'browser', 'mobile_id']);
    expect(rows[0]!.value).toMatch(/^[0-9a-f]{64}$/); // three, as the kinds say
  });

  test('when a linked session later brings a fingerprint (a later SDK post), then its accounts gain it', async () => {
    const id = await storeSession({ source: 'web', device_id: 'dev-late' });
    await link(id, 'acct-late');
    expect((await kept({ account_id: 'acct-late' })).map((r) => r.kind)).toEqual(['browser']);
    const stored = (await sessions().find(projectId, id))!;
    await testDb.db.transaction((trx) =>
      sessions().update(
        { ...stored, sdk: { ...stored.sdk!, browser_fingerprint: 'fp-late' }, updatedAt: new Date(T.getTime() + 1000) },
        trx,
      ),
    );
    expect(await kept({ account_id: 'acct-late' })).toContainEqual({
      kind: 'device',
      value: 'fp-late',
      account_id: 'acct-late',
    });
  });

  test('when an account is erased, then its identifiers go with its links; other accounts on the same browser stay', async () => {
    const s1 = await storeSession({ source: 'web', device_id: 'dev-shared' });
    const s2 = await storeSession({ source: 'web', device_id: 'dev-shared' });
    await link(s1, 'acct-erased');
    await link(s2, 'acct-stays');
    await makeAccountRepository(testDb.db).delete(projectId, 'acct-erased');
    expect(await kept({ value: 'dev-shared' })).toEqual([
      { kind: 'browser', value: 'dev-shared', account_id: 'acct-stays' },
    ]);
  });

  test('when a value already counts the cap of accounts, then another account is not added (the search reads no more than that)', async () => {
    const rows = Array.from({ length: keptPerValue('browser') }, (_, i) => ({
      project_id: projectId,
      kind: 'browser',
      value: 'dev-crowd',
      account_id: `crowd-${i}`,
      created_at: T.getTime(),
    }));
    for (let i = 0; i < rows.length; i += 200) await testDb.db('identifier_accounts').insert(rows.slice(i, i + 200));
    const s = await storeSession({ source: 'web', device_id: 'dev-crowd', browser_fingerprint: 'fp-crowd' });
    await link(s, 'acct-late-comer');
    expect(await kept({ account_id: 'acct-late-comer' })).toEqual([
      { kind: 'device', value: 'fp-crowd', account_id: 'acct-late-comer' },
    ]);
    expect(await kept({ value: 'dev-crowd' })).toHaveLength(keptPerValue('browser'));
  });

  test("when a fingerprint already counts its kind's cap (one past its crowd limit), then a new account is not added", async () => {
    expect(keptPerValue('device')).toBeLessThan(keptPerValue('browser'));
    const rows = Array.from({ length: keptPerValue('device') }, (_, i) => ({
      project_id: projectId,
      kind: 'device',
      value: 'fp-popular-model',
      account_id: `model-${i}`,
      created_at: T.getTime(),
    }));
    await testDb.db('identifier_accounts').insert(rows);
    const s = await storeSession({ source: 'web', device_id: 'dev-own', browser_fingerprint: 'fp-popular-model' });
    await link(s, 'acct-model-owner');
    expect(await kept({ account_id: 'acct-model-owner' })).toEqual([
      { kind: 'browser', value: 'dev-own', account_id: 'acct-model-owner' },
    ]);
    expect(await kept({ value: 'fp-popular-model' })).toHaveLength(keptPerValue('device'));
  });

  test('when the rows are rebuilt from the sessions and links, then they are what the writes kept', async () => {
    const before = await kept();
    await rebuildIdentifierAccounts(testDb.db, projectId);
    // The crowd rows above were written directly (no sessions behind them): a rebuild keeps what
    // the links show, so the accounts that came after them now count for the browser and the model.
    const expected = [
      ...before.filter((r) => !r.account_id.startsWith('crowd-') && !r.account_id.startsWith('model-')),
      { kind: 'browser', value: 'dev-crowd', account_id: 'acct-late-comer' },
      { kind: 'device', value: 'fp-popular-model', account_id: 'acct-model-owner' },
    ];
    const order = (rows: typeof before) =>
      [...rows].sort((a, b) =>
        `${a.kind} ${a.value} ${a.account_id}`.localeCompare(`${b.kind} ${b.value} ${b.account_id}`),
      );
    expect(order(await kept())).toEqual(order(expected));
  });
});

describe('session_accounts', () => {
  test('when a session is linked, then the link carries its start and address and block', async () => {
    const id = await storeSession({ source: 'web', device_id: 'dev-net' }, '203.0.113.7');
    await link(id, 'acct-net');
    const row = await testDb.db('session_accounts').where({ session_id: id }).first();
    expect({ start: Number(row.session_start), ip: row.ip_address, block: row.ip_block }).toEqual({
      start: T.getTime(),
      ip: '203.0.113.7',
      block: '203.0.113.0/24',
    });
  });
});
