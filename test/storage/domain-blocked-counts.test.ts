/**
 * The per-domain counts (email_domains.num_accounts and num_blocked, migration 0034) on the real
 * database: kept by triggers whichever path writes a membership or an account, they equal a
 * recount from accounts and list_members after each kind of write.
 */
import { randomUUID } from 'node:crypto';
import { evaluatedAccountStatements, makeAccountRepository } from '../../src/storage/repositories/accounts';
import type { AccountRecord } from '../../src/domain/evaluation/facts';
import { makeListRepository } from '../../src/storage/repositories/lists';
import { makeProjectDataRepository } from '../../src/storage/repositories/project-data';
import { runStatement } from '../../src/storage/statements';
import { accountRecord } from '../helpers/accounts';
import { insertProject, makeTestDb, type TestDb } from '../helpers/db';

let testDb: TestDb;
const projectId = randomUUID();
const otherProject = randomUUID();
const T = new Date('2026-11-25T08:00:00.000Z');

beforeAll(async () => {
  testDb = await makeTestDb();
  await insertProject(testDb.db, projectId, 'blocked counts', T);
  await insertProject(testDb.db, otherProject, 'other', T);
});
afterAll(() => testDb.destroy());

const accounts = () => makeAccountRepository(testDb.db);
const lists = () => makeListRepository(testDb.db);

/** The kept block-listed counts of the project, domain → count (zeros left out). */
async function kept(project = projectId): Promise<Record<string, number>> {
  const rows = await testDb.db('email_domains').where({ project_id: project }).select('domain', 'num_blocked');
  const out: Record<string, number> = {};
  for (const r of rows as { domain: string; num_blocked: number | string }[])
    if (Number(r.num_blocked) !== 0) out[r.domain] = Number(r.num_blocked);
  return out;
}

/** The same counted from the rows. */
async function recount(project = projectId): Promise<Record<string, number>> {
  const rows = await testDb
    .db('list_members as m')
    .join('accounts as a', function () {
      this.on('a.project_id', '=', 'm.project_id').andOn('a.id', '=', 'm.account_id');
    })
    .where({ 'm.project_id': project, 'm.list_name': 'block' })
    .whereNotNull('a.email_domain')
    .groupBy('a.email_domain')
    .select('a.email_domain as domain')
    .count({ n: '*' });
  return Object.fromEntries((rows as { domain: string; n: number | string }[]).map((r) => [r.domain, Number(r.n)]));
}

/** The kept account counts (zeros left out) and a recount from the accounts. */
async function accountCounts(
  project: string,
): Promise<{ kept: Record<string, number>; counted: Record<string, number> }> {
  const keptRows = await testDb
    .db('email_domains')
    .where({ project_id: project })
    .select('domain', 'num_accounts as n');
  const countedRows = await testDb
    .db('accounts')
    .where({ project_id: project })
    .whereNotNull('email_domain')
    .groupBy('email_domain')
    .select('email_domain as domain')
    .count({ n: '*' });
  const map = (rows: { domain: string; n: number | string }[]) =>
    Object.fromEntries(rows.filter((r) => Number(r.n) !== 0).map((r) => [r.domain, Number(r.n)]));
  return { kept: map(keptRows), counted: map(countedRows as { domain: string; n: number | string }[]) };
}

/** Checks the kept block-listed counts against a recount, and that they are `expected`; and the account counts against theirs. */
async function expectCounts(expected: Record<string, number>, project = projectId): Promise<void> {
  expect(await recount(project)).toEqual(expected);
  expect(await kept(project)).toEqual(expected);
  const accounts = await accountCounts(project);
  expect(accounts.kept).toEqual(accounts.counted);
}

function account(id: string, email?: string, project = projectId): AccountRecord {
  return accountRecord(
    project,
    id,
    T,
    email ? { email, emailKey: email, emailDomain: email.slice(email.indexOf('@') + 1) } : {},
  );
}

describe('email_domains.num_accounts and num_blocked', () => {
  test('when memberships and accounts are written by each path, then the kept count equals a recount after every write', async () => {
    const db = testDb.db;
    for (const [id, email] of [
      ['a1', 'a1@acme.example'],
      ['a2', 'a2@acme.example'],
      ['a3', 'a3@bolt.example'],
      ['a4', undefined],
    ] as const)
      await db.transaction((trx) => accounts().upsert(account(id, email), trx));
    await expectCounts({});

    // The List API's add; a second add of the same membership changes nothing.
    await lists().add(projectId, 'block', 'a1', T);
    await lists().add(projectId, 'block', 'a1', T);
    await expectCounts({ 'acme.example': 1 });
    // Another list does not count; an account with no address is not counted anywhere.
    await lists().add(projectId, 'vip', 'a2', T);
    await lists().add(projectId, 'block', 'a4', T);
    await expectCounts({ 'acme.example': 1 });

    // apply (a rule's or the authenticate request's lists): block takes the account off the others.
    await lists().add(projectId, 'allow', 'a3', T);
    await db.transaction((trx) => lists().apply(projectId, 'a3', ['block'], T, trx));
    await expectCounts({ 'acme.example': 1, 'bolt.example': 1 });

    // An id listed before its account exists counts once the account is written with an address.
    await lists().add(projectId, 'block', 'a5', T);
    await expectCounts({ 'acme.example': 1, 'bolt.example': 1 });
    await db.transaction((trx) => accounts().upsert(account('a5', 'a5@acme.example'), trx));
    await expectCounts({ 'acme.example': 2, 'bolt.example': 1 });

    // An address given to a listed account that had none; an account moving to another domain.
    await db.transaction((trx) => accounts().upsert(account('a4', 'a4@bolt.example'), trx));
    await expectCounts({ 'acme.example': 2, 'bolt.example': 2 });
    await db.transaction((trx) => accounts().upsert(account('a1', 'a1@crane.example'), trx));
    await expectCounts({ 'acme.example': 1, 'bolt.example': 2, 'crane.example': 1 });

    // The evaluation's own write (the hot path's statements): a move, then an address taken away.
    const moveByEvaluation = async (id: string, email: string | undefined) => {
      const existing = (await accounts().find(projectId, id))!;
      const { email: _e, emailKey: _k, emailDomain: _d, ...rest } = existing;
      const next = { ...rest, ...(email ? { email, emailKey: email, emailDomain: email.split('@')[1] } : {}) };
      await db.transaction(async (trx) => {
        for (const s of evaluatedAccountStatements(next, existing)) await runStatement(trx, s);
      });
    };
    await moveByEvaluation('a3', 'a3@crane.example');
    await expectCounts({ 'acme.example': 1, 'bolt.example': 1, 'crane.example': 2 });
    await moveByEvaluation('a3', undefined);
    await expectCounts({ 'acme.example': 1, 'bolt.example': 1, 'crane.example': 1 });
    // An update that leaves the domain as it is changes nothing.
    await db.transaction((trx) => accounts().upsert({ ...account('a4', 'a4@bolt.example'), firstName: 'Ann' }, trx));
    await expectCounts({ 'acme.example': 1, 'bolt.example': 1, 'crane.example': 1 });

    // Removed from the list (the List API), and an account's erasure (its memberships go first).
    await lists().remove(projectId, ['block'], 'a4');
    await expectCounts({ 'acme.example': 1, 'crane.example': 1 });
    expect(await db.transaction((trx) => accounts().delete(projectId, 'a1', trx))).toBe(true);
    await expectCounts({ 'acme.example': 1 });

    // The other order, as a raw delete would do it: the account first, then its membership.
    await db.transaction((trx) => accounts().upsert(account('a6', 'a6@bolt.example'), trx));
    await lists().add(projectId, 'block', 'a6', T);
    await expectCounts({ 'acme.example': 1, 'bolt.example': 1 });
    await db('accounts').where({ project_id: projectId, id: 'a6' }).delete();
    await expectCounts({ 'acme.example': 1 });
    await db('list_members').where({ project_id: projectId, account_id: 'a6' }).delete();
    await expectCounts({ 'acme.example': 1 });

    // A membership updated in place (nothing does it today): off the block list and back.
    await db('list_members')
      .where({ project_id: projectId, account_id: 'a5', list_name: 'block' })
      .update({ list_name: 'vip2' });
    await expectCounts({});
    await db('list_members')
      .where({ project_id: projectId, account_id: 'a5', list_name: 'vip2' })
      .update({ list_name: 'block' });
    await expectCounts({ 'acme.example': 1 });

    // Another project's accounts at the same domain count in its own row only.
    await db.transaction((trx) => accounts().upsert(account('a1', 'a1@acme.example', otherProject), trx));
    await makeListRepository(db).add(otherProject, 'block', 'a1', T);
    await expectCounts({ 'acme.example': 1 }, otherProject);
    await expectCounts({ 'acme.example': 1 });

    // A list's deletion.
    await db.transaction((trx) => lists().delete(projectId, 'block', trx));
    await expectCounts({});

    // A project's reset: its rows go (none left negative), the other project's stay.
    await lists().add(projectId, 'block', 'a2', T);
    await expectCounts({ 'acme.example': 1 });
    await db.transaction((trx) => makeProjectDataRepository().deleteAll(projectId, trx));
    expect(await db('email_domains').where({ project_id: projectId })).toEqual([]);
    await expectCounts({ 'acme.example': 1 }, otherProject);
  });

  test('when a write that would count fails, then nothing of it is counted (the count is in the statement’s transaction)', async () => {
    const db = testDb.db;
    const project = randomUUID();
    await insertProject(db, project, 'failed write', T);
    await db.transaction((trx) => accounts().upsert(account('t1', 't1@dove.example', project), trx));
    await expect(
      db.transaction(async (trx) => {
        await lists().add(project, 'block', 't1', T, trx);
        // Counted inside the transaction:
        expect(await trx('email_domains').where({ project_id: project }).first('num_blocked')).toEqual({
          num_blocked: 1,
        });
        throw new Error('a later step failed');
      }),
    ).rejects.toThrow('a later step failed');
    await expectCounts({}, project);
  });
});
