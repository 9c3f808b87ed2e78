/**
 * The link search with the accounts it found described (storage/evaluation/reads.ts `linksDescribed`), on
 * the real database: the accounts an evaluation describes (domain/evaluation accountsToDescribe)
 * whatever the crowd, in one statement on PostgreSQL up to LINK_CAP found accounts, and the
 * strongest LINK_CAP of a larger crowd read apart.
 */
import { randomUUID } from 'node:crypto';
import { LINK_CAP, type LinkSearch } from '../../src/domain/evaluation';
import { dialectOf } from '../../src/storage/db';
import { makeEvaluationReads } from '../../src/storage/evaluation/reads';
import { hotStatementsOf } from '../../src/storage/db';
import { insertProject, makeTestDb, type TestDb } from '../helpers/db';

let testDb: TestDb;
const projectId = randomUUID();
const T = Date.parse('2026-11-20T12:00:00.000Z');

/** `n` accounts named `name` (`<prefix>-0000`…), the first on the block list. */
async function crowd(prefix: string, name: string, n: number): Promise<void> {
  const rows = Array.from({ length: n }, (_, i) => ({
    project_id: projectId,
    id: `${prefix}-${String(i).padStart(4, '0')}`,
    first_name: name,
    name_key: name,
    expected_countries: '["GB"]',
    metadata: '{}',
    created_at: T,
    updated_at: T,
    num_sessions: 0,
    countries: '[]',
    version: 0,
  }));
  for (let i = 0; i < rows.length; i += 200) await testDb.db('accounts').insert(rows.slice(i, i + 200));
  await testDb.db('list_members').insert({
    project_id: projectId,
    list_name: 'block',
    account_id: `${prefix}-0000`,
    added_at: T,
  });
}

const search = (name: string): LinkSearch => ({
  identifiers: [{ type: 'name', value: name, of: 'account' }],
  networks: [],
  excludeAccount: 'the-evaluated-account',
});

/** linksDescribed's answer and the statements it sent. */
async function described(name: string, ask: { describe: boolean; groupsEnabled: boolean }) {
  const sent: string[] = [];
  const onQuery = (q: { sql: string }) => sent.push(q.sql);
  testDb.db.on('query', onQuery);
  try {
    const reads = makeEvaluationReads(hotStatementsOf(testDb.db).rows, dialectOf(testDb.db));
    const found = await reads.linksDescribed(projectId, search(name), LINK_CAP + 1, 21, ask);
    return { found, statements: sent.length };
  } finally {
    testDb.db.off('query', onQuery);
  }
}

beforeAll(async () => {
  testDb = await makeTestDb();
  await insertProject(testDb.db, projectId, 'links described', new Date(T));
  await crowd('few', 'a few', 20);
  await crowd('many', 'a crowd', LINK_CAP + 10);
}, 60_000);
afterAll(() => testDb.destroy());

describe('linksDescribed', () => {
  test('when the search finds a few accounts, then each is described with its lists, in one statement on PostgreSQL', async () => {
    const { found, statements } = await described('a few', { describe: true, groupsEnabled: false });
    expect(found.identifiers).toEqual([
      { type: 'name', value: 'a few', accountIds: expect.arrayContaining(['few-0000', 'few-0019']) },
    ]);
    expect(found.identifiers[0]!.accountIds).toHaveLength(20);
    expect([...found.linked.keys()].sort()).toEqual(found.identifiers[0]!.accountIds.slice().sort());
    expect(found.linked.get('few-0000')).toMatchObject({
      record: { id: 'few-0000', firstName: 'a few', expectedCountries: ['GB'] },
      lists: ['block'],
    });
    expect(found.linked.get('few-0001')!.lists).toEqual([]);
    expect(statements).toBe(dialectOf(testDb.db) === 'postgresql' ? 1 : 2);
  });

  test('when the search finds more than LINK_CAP accounts, then the strongest LINK_CAP are described, read apart', async () => {
    const { found, statements } = await described('a crowd', { describe: true, groupsEnabled: false });
    // The search stops one past the cap.
    expect(found.identifiers[0]!.accountIds).toHaveLength(LINK_CAP + 1);
    expect(found.linked.size).toBe(LINK_CAP);
    for (const id of found.linked.keys()) expect(found.identifiers[0]!.accountIds).toContain(id);
    expect(statements).toBe(2);
  });

  test('when groups are on, then every account found is described, however many', async () => {
    const { found } = await described('a crowd', { describe: false, groupsEnabled: true });
    expect(found.linked.size).toBe(LINK_CAP + 1);
  });

  test('when the linked accounts are not asked for and groups are off, then none is described, in one statement', async () => {
    const { found, statements } = await described('a few', { describe: false, groupsEnabled: false });
    expect(found.identifiers[0]!.accountIds).toHaveLength(20);
    expect(found.linked.size).toBe(0);
    expect(statements).toBe(1);
  });
});
