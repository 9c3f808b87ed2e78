/**
 * The lists an account is on come in the code-unit order of their names on both engines, as the
 * evaluation (the account and its linked accounts) and the Account API give them. PostgreSQL's
 * ORDER BY follows the database's collation: on a database collating as English (ICU `en-US`)
 * it puts `allow` before `VIP`; SQLite compares bytes, as the service now orders on both.
 */
import { randomUUID } from 'node:crypto';
import { makeAccountRepository } from '../../src/storage/repositories/accounts';
import { dialectOf, hotStatementsOf } from '../../src/storage/db';
import { makeEvaluationReads } from '../../src/storage/evaluation/reads';
import { makeListRepository } from '../../src/storage/repositories/lists';
import { accountRecord } from '../helpers/accounts';
import { insertProject, makeTestDb, type TestDb } from '../helpers/db';

let testDb: TestDb;
const projectId = randomUUID();
const T = new Date('2026-11-25T14:00:00.000Z');
const NAMES = ['b2b', 'allow', 'Zeta', 'VIP', 'ärzte'];
/** By UTF-16 code units: upper case before lower case, `ä` (U+00E4) after `z`. */
const CODE_UNIT_ORDER = ['VIP', 'Zeta', 'allow', 'b2b', 'ärzte'];

beforeAll(async () => {
  testDb = await makeTestDb({ icuLocale: 'en-US' });
  await insertProject(testDb.db, projectId, 'list order', T);
  await testDb.db.transaction((trx) =>
    makeAccountRepository(testDb.db).upsert(accountRecord(projectId, 'acct-1', T), trx),
  );
  for (const name of NAMES) await makeListRepository(testDb.db).add(projectId, name, 'acct-1', T);
});
afterAll(() => testDb.destroy());

describe("an account's lists", () => {
  test("when the database collates as English, then its own ORDER BY differs from code units (the test's premise, on PostgreSQL)", async () => {
    const rows = await testDb
      .db('list_members')
      .where({ project_id: projectId, account_id: 'acct-1' })
      .orderBy('list_name')
      .select('list_name');
    const byDatabase = (rows as { list_name: string }[]).map((r) => r.list_name);
    if (testDb.dialect === 'postgresql') expect(byDatabase).toEqual(['allow', 'ärzte', 'b2b', 'VIP', 'Zeta']);
    else expect(byDatabase).toEqual(CODE_UNIT_ORDER);
  });

  test('when the Account API reads them, then they come in code-unit order', async () => {
    const lists = await makeListRepository(testDb.db).ofAccounts(projectId, ['acct-1']);
    expect(lists.get('acct-1')).toEqual(CODE_UNIT_ORDER);
  });

  test('when an evaluation reads the account, then its lists come in code-unit order', async () => {
    const found = await makeEvaluationReads(hotStatementsOf(testDb.db).rows, dialectOf(testDb.db)).accounts(projectId, [
      'acct-1',
    ]);
    expect(found.get('acct-1')?.lists).toEqual(CODE_UNIT_ORDER);
  });
});
