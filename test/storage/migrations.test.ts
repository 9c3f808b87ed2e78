/**
 * Migrations that move existing data, on the engine the suite runs on: the database is
 * migrated up to the one before, given rows as an earlier release left them, then migrated
 * to the latest.
 */
import type { Knex } from 'knex';
import { migrate } from '../../src/storage/db';
import { migrationSource } from '../../src/storage/migrations';
import { makeListRepository } from '../../src/storage/repositories/lists';
import { makeTestDb, type TestDb } from '../helpers/db';

/** Every migration whose name sorts before `name`. */
async function migrateBefore(db: Knex, name: string): Promise<void> {
  await db.migrate.latest({
    migrationSource: {
      ...migrationSource,
      getMigrations: async () => (await migrationSource.getMigrations([])).filter((m) => m < name),
    },
  });
}

describe('0014_standard_lists', () => {
  let testDb: TestDb;
  beforeAll(async () => {
    testDb = await makeTestDb({ migrate: false });
  });
  afterAll(() => testDb.destroy());

  it('when projects were made without their standard lists, then each gets the missing ones, dated from the project, and keeps the rest', async () => {
    const { db } = testDb;
    await migrateBefore(db, '0014_standard_lists');
    const project = (id: string, createdAt: number) => ({
      id,
      name: id,
      webhook_secret_encrypted: 'x',
      created_at: createdAt,
    });
    await db('projects').insert([
      project('never-listed', 1_000),
      project('half-listed', 2_000),
      project('all-listed', 3_000),
    ]);
    await db('lists').insert([
      { project_id: 'half-listed', name: 'block', standard: true, created_at: 2_500 },
      { project_id: 'half-listed', name: 'vip', standard: false, created_at: 2_600 },
      ...['allow', 'block', 'main_account'].map((name) => ({
        project_id: 'all-listed',
        name,
        standard: true,
        created_at: 3_500,
      })),
    ]);

    await migrate(db);

    const rows = (await db('lists').orderBy(['project_id', 'name'])).map((r: Record<string, unknown>) => ({
      project: r.project_id,
      name: r.name,
      standard: Boolean(r.standard),
      at: Number(r.created_at),
    }));
    expect(rows).toEqual([
      { project: 'all-listed', name: 'allow', standard: true, at: 3_500 },
      { project: 'all-listed', name: 'block', standard: true, at: 3_500 },
      { project: 'all-listed', name: 'main_account', standard: true, at: 3_500 },
      { project: 'half-listed', name: 'allow', standard: true, at: 2_000 },
      { project: 'half-listed', name: 'block', standard: true, at: 2_500 },
      { project: 'half-listed', name: 'main_account', standard: true, at: 2_000 },
      { project: 'half-listed', name: 'vip', standard: false, at: 2_600 },
      { project: 'never-listed', name: 'allow', standard: true, at: 1_000 },
      { project: 'never-listed', name: 'block', standard: true, at: 1_000 },
      { project: 'never-listed', name: 'main_account', standard: true, at: 1_000 },
    ]);
  });
});

describe('0016_test_projects', () => {
  let testDb: TestDb;
  beforeAll(async () => {
    testDb = await makeTestDb({ migrate: false });
  });
  afterAll(() => testDb.destroy());

  it('when projects were made before test projects existed, then every one of them is live', async () => {
    const { db } = testDb;
    await migrateBefore(db, '0016_test_projects');
    await db('projects').insert([
      { id: 'older', name: 'older', webhook_secret_encrypted: 'x', created_at: 1_000, demo: false },
      { id: 'demo', name: 'demo', webhook_secret_encrypted: 'x', created_at: 2_000, demo: true },
    ]);
    await migrate(db);
    const rows = (await db('projects').orderBy('id')).map((r: Record<string, unknown>) => [r.id, Boolean(r.test)]);
    expect(rows).toEqual([
      ['demo', false],
      ['older', false],
    ]);
  });
});

describe('0017_list_descriptions_account_scores', () => {
  let testDb: TestDb;
  beforeAll(async () => {
    testDb = await makeTestDb({ migrate: false });
  });
  afterAll(() => testDb.destroy());

  it('when lists and accounts were made before, then lists have no description and accounts no scores until set', async () => {
    const { db } = testDb;
    await migrateBefore(db, '0017_list_descriptions_account_scores');
    await db('projects').insert({ id: 'p', name: 'p', webhook_secret_encrypted: 'x', created_at: 1_000 });
    await db('lists').insert({ project_id: 'p', name: 'vip', standard: false, created_at: 2_000 });
    await migrate(db);
    const lists = makeListRepository(db);
    expect(await lists.find('p', 'vip')).toMatchObject({ name: 'vip', description: undefined, standard: false });
    expect(await lists.create('p', 'US users', 'Customers in the US', new Date(3_000))).toBe(true);
    expect(await lists.create('p', 'vip', 'again', new Date(4_000))).toBe(false);
    expect((await lists.all('p')).map((l) => [l.name, l.description])).toEqual([
      ['US users', 'Customers in the US'],
      ['vip', undefined],
    ]);
    expect(Object.keys(await db('accounts').columnInfo())).toContain('scores');
  });
});
