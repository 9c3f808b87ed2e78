/**
 * The link search with the accounts it found described (storage/evaluation/reads.ts `linksDescribed`), on
 * the real database: each identifier's sharers read no further than its type can count
 * (`sharersToRead`), however many share it; only links over the floor described (domain/evaluation
 * accountsToDescribe), the strongest LINK_CAP of a larger crowd, every one when groups are on.
 */
import { randomUUID } from 'node:crypto';
import type { MatchType } from '../../src/api-types';
import { LINK_CAP, sharersToRead, type LinkSearch } from '../../src/domain/evaluation';
import { dialectOf, hotStatementsOf } from '../../src/storage/db';
import { makeEvaluationReads } from '../../src/storage/evaluation/reads';
import { insertProject, makeTestDb, type TestDb } from '../helpers/db';

let testDb: TestDb;
const projectId = randomUUID();
const T = Date.parse('2026-11-20T12:00:00.000Z');
const FLOOR = 0.1;

const ACCOUNT_COLUMNS = { name: 'name_key', email: 'email_key' } as const;

/**
 * `n` accounts (`<prefix>-0000`…) sharing `value` as `type`: a name or email in the account's
 * own column, a browser in identifier_accounts; the first on the block list.
 */
async function crowd(prefix: string, type: 'name' | 'email' | 'browser', value: string, n: number): Promise<void> {
  const ids = Array.from({ length: n }, (_, i) => `${prefix}-${String(i).padStart(4, '0')}`);
  const rows = ids.map((id) => ({
    project_id: projectId,
    id,
    first_name: prefix,
    ...(type === 'browser' ? {} : { [ACCOUNT_COLUMNS[type]]: value }),
    expected_countries: '["GB"]',
    metadata: '{}',
    created_at: T,
    updated_at: T,
    num_sessions: 0,
    countries: '[]',
    version: 0,
  }));
  for (let i = 0; i < rows.length; i += 200) await testDb.db('accounts').insert(rows.slice(i, i + 200));
  if (type === 'browser') {
    const kept = ids.map((account_id) => ({ project_id: projectId, kind: type, value, account_id, created_at: T }));
    for (let i = 0; i < kept.length; i += 200) await testDb.db('identifier_accounts').insert(kept.slice(i, i + 200));
  }
  await testDb
    .db('list_members')
    .insert({ project_id: projectId, list_name: 'block', account_id: ids[0], added_at: T });
}

const search = (type: MatchType, value: string): LinkSearch => ({
  identifiers: [{ type, value, of: type === 'browser' ? 'session' : 'account' }],
  networks: [],
  excludeAccount: 'the-evaluated-account',
});

/** linksDescribed's answer and the statements it sent. */
async function described(s: LinkSearch, ask: { describe: boolean; groupsEnabled: boolean }) {
  const sent: string[] = [];
  const onQuery = (q: { sql: string }) => sent.push(q.sql);
  testDb.db.on('query', onQuery);
  try {
    const reads = makeEvaluationReads(hotStatementsOf(testDb.db).rows, dialectOf(testDb.db));
    const found = await reads.linksDescribed(projectId, s, { ...ask, floor: FLOOR });
    return { found, statements: sent.length };
  } finally {
    testDb.db.off('query', onQuery);
  }
}

beforeAll(async () => {
  testDb = await makeTestDb();
  await insertProject(testDb.db, projectId, 'links described', new Date(T));
  await crowd('few', 'email', 'few@example.com', 20);
  // Shared by 71 with the evaluated account: 0.9 · 0.5^(69/20) = 0.082, under the floor.
  await crowd('mid', 'email', 'mid@example.com', 70);
  await crowd('office', 'email', 'office@example.com', 300);
  await crowd('smith', 'name', 'john smith', 40);
  await crowd('farm', 'browser', 'stored-id-of-a-farm', LINK_CAP + 10);
}, 120_000);
afterAll(() => testDb.destroy());

describe('linksDescribed', () => {
  test('when an email is shared by a few, then each account is a link, described with its lists', async () => {
    const { found, statements } = await described(search('email', 'few@example.com'), {
      describe: true,
      groupsEnabled: false,
    });
    expect(found.identifiers[0]!.accountIds).toHaveLength(20);
    expect([...found.linked.keys()].sort()).toEqual(found.identifiers[0]!.accountIds.slice().sort());
    expect(found.linked.get('few-0000')).toMatchObject({
      record: { id: 'few-0000', firstName: 'few', expectedCountries: ['GB'] },
      lists: ['block'],
    });
    expect(found.linked.get('few-0001')!.lists).toEqual([]);
    expect(statements).toBe(2);
  });

  test('when an email is shared by too many for its weight to reach the floor, then none is read', async () => {
    const { found, statements } = await described(search('email', 'mid@example.com'), {
      describe: true,
      groupsEnabled: true,
    });
    expect(found.identifiers[0]!.accountIds).toHaveLength(70);
    expect(found.linked.size).toBe(0);
    expect(statements).toBe(1);
  });

  test.each([
    ['email', 'office@example.com', 300],
    ['name', 'john smith', 40],
  ] as const)(
    'when the %s %s is shared by %i, past its crowd limit, then the search reads one past the limit and finds no link',
    async (type, value, _sharedBy) => {
      const { found, statements } = await described(search(type, value), { describe: true, groupsEnabled: true });
      expect(found.identifiers[0]!.accountIds).toHaveLength(sharersToRead(type));
      expect(found.linked.size).toBe(0);
      expect(statements).toBe(1);
    },
  );

  test('when a browser is shared by more than LINK_CAP, then the search stops one past the cap and the strongest LINK_CAP are described', async () => {
    const { found, statements } = await described(search('browser', 'stored-id-of-a-farm'), {
      describe: true,
      groupsEnabled: false,
    });
    expect(found.identifiers[0]!.accountIds).toHaveLength(LINK_CAP + 1);
    expect(found.linked.size).toBe(LINK_CAP);
    for (const id of found.linked.keys()) expect(found.identifiers[0]!.accountIds).toContain(id);
    expect(statements).toBe(2);
  });

  test('when groups are on, then every link found is described, however many', async () => {
    const { found } = await described(search('browser', 'stored-id-of-a-farm'), {
      describe: false,
      groupsEnabled: true,
    });
    expect(found.linked.size).toBe(LINK_CAP + 1);
  });

  test('when the linked accounts are not asked for and groups are off, then none is described, in one statement', async () => {
    const { found, statements } = await described(search('email', 'few@example.com'), {
      describe: false,
      groupsEnabled: false,
    });
    expect(found.identifiers[0]!.accountIds).toHaveLength(20);
    expect(found.linked.size).toBe(0);
    expect(statements).toBe(1);
  });
});
