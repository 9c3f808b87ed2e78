/** Lists and their members. The standard lists are rows like any other, marked `standard`. */
import type { Knex } from 'knex';
import type { ListName } from '../../api-types';
import { stepsToAdd, type MembershipStep } from '../../domain/lists';
import { byCodeUnits } from '../../domain/order';
import { runStatement, statementOf, type Statement } from '../statements';

export interface ListRecord {
  name: string;
  /** As given when the list was created (the standard lists' are the code's). */
  description?: string;
  standard: boolean;
  createdAt: Date;
  numAccounts: number;
}

/** The insert of ensureLists, also a membership step's `create`. */
const ensureQuery = (q: Knex, projectId: string, names: { name: string; standard: boolean }[], at: Date) =>
  q('lists')
    .insert(names.map((n) => ({ project_id: projectId, name: n.name, standard: n.standard, created_at: at.getTime() })))
    .onConflict(['project_id', 'name'])
    .ignore();

const addQuery = (q: Knex, projectId: string, name: string, accountId: string, at: Date) =>
  q('list_members')
    .insert({ project_id: projectId, list_name: name, account_id: accountId, added_at: at.getTime() })
    .onConflict(['project_id', 'list_name', 'account_id'])
    .ignore();

const removeQuery = (q: Knex, projectId: string, names: readonly string[], accountId: string) =>
  q('list_members').where({ project_id: projectId, account_id: accountId }).whereIn('list_name', names).delete();

/** One membership an apply added or removed (what the list events report). */
export interface MembershipChange {
  change: 'added' | 'removed';
  listName: string;
}

/**
 * A membership step as one statement (domain/lists.ts), built on `db` without running it. With
 * `returning`, a remove or an add returns the list_name of each membership it changed (an add
 * of a membership that was there: none).
 */
export function stepStatement(
  db: Knex,
  projectId: string,
  accountId: string,
  step: MembershipStep,
  at: Date,
  returning = false,
): Statement {
  if (step.op === 'create')
    return statementOf(
      ensureQuery(
        db,
        projectId,
        step.lists.map((name) => ({ name, standard: false })),
        at,
      ),
    );
  const s = statementOf(
    step.op === 'add'
      ? addQuery(db, projectId, step.list, accountId, at)
      : removeQuery(db, projectId, step.lists, accountId),
  );
  // knex writes no RETURNING into SQLite's DELETE (SQLite has it since 3.35): added here, for both.
  return returning ? { ...s, sql: `${s.sql} returning list_name` } : s;
}

/** An SQL condition: the account is (`present`) or is not on the list, when the statement runs. */
export function membershipCondition(projectId: string, accountId: string, list: string, present: boolean): Statement {
  return {
    sql: `${present ? '' : 'NOT '}EXISTS (SELECT 1 FROM list_members WHERE project_id = ? AND list_name = ? AND account_id = ?)`,
    bindings: [projectId, list, accountId],
  };
}

/** Creates the lists that do not exist yet (standard ones marked so); existing ones are left alone. */
export async function ensureLists(
  db: Knex,
  projectId: string,
  names: { name: string; standard: boolean }[],
  at: Date,
): Promise<void> {
  if (names.length > 0) await ensureQuery(db, projectId, names, at);
}

/** Adds the account to the list (already there: nothing changes). */
export async function addMember(db: Knex, projectId: string, name: string, accountId: string, at: Date): Promise<void> {
  await addQuery(db, projectId, name, accountId, at);
}

/** Removes the account from these lists; how many memberships it had there. */
export async function removeMembers(db: Knex, projectId: string, names: string[], accountId: string): Promise<number> {
  return removeQuery(db, projectId, names, accountId);
}

/** Creates a custom list; false when the project has a list of that name already. */
export async function createList(
  db: Knex,
  projectId: string,
  name: string,
  description: string | undefined,
  at: Date,
): Promise<boolean> {
  const inserted = await db('lists')
    .insert({
      project_id: projectId,
      name,
      standard: false,
      description: description ?? null,
      created_at: at.getTime(),
    })
    .onConflict(['project_id', 'name'])
    .ignore()
    .returning('name');
  return inserted.length === 1;
}

/** The project's lists with how many accounts each holds, by name. */
export async function allLists(db: Knex, projectId: string): Promise<ListRecord[]> {
  const rows = await db('lists as l')
    .leftJoin('list_members as m', function () {
      this.on('m.project_id', '=', 'l.project_id').andOn('m.list_name', '=', 'l.name');
    })
    .where('l.project_id', projectId)
    .groupBy('l.name', 'l.description', 'l.standard', 'l.created_at')
    .orderBy('l.name')
    .select('l.name', 'l.description', 'l.standard', 'l.created_at')
    .count({ n: 'm.account_id' });
  return rows.map((r: Record<string, unknown>) => ({
    name: String(r.name),
    description: (r.description as string | null) ?? undefined,
    standard: Boolean(r.standard),
    createdAt: new Date(Number(r.created_at)),
    numAccounts: Number(r.n),
  }));
}

export async function findList(db: Knex, projectId: string, name: string): Promise<ListRecord | undefined> {
  const row = await db('lists').where({ project_id: projectId, name }).first();
  if (!row) return undefined;
  const count = await db('list_members')
    .where({ project_id: projectId, list_name: name })
    .count<{ n: string | number }[]>({ n: '*' })
    .first();
  return {
    name: row.name,
    description: row.description ?? undefined,
    standard: Boolean(row.standard),
    createdAt: new Date(Number(row.created_at)),
    numAccounts: Number(count?.n ?? 0),
  };
}

/** A page of the list's account ids, in id order, after `after`. */
export async function listMembers(
  db: Knex,
  projectId: string,
  name: string,
  limit: number,
  after: string | undefined,
): Promise<string[]> {
  const q = db('list_members')
    .where({ project_id: projectId, list_name: name })
    .orderBy('account_id')
    .limit(limit)
    .select('account_id');
  if (after !== undefined) q.where('account_id', '>', after);
  return (await q).map((r: { account_id: string }) => r.account_id);
}

/** Deletes the list and its memberships; false when there was no such list. */
export async function deleteList(db: Knex, projectId: string, name: string): Promise<boolean> {
  await db('list_members').where({ project_id: projectId, list_name: name }).delete();
  return (await db('lists').where({ project_id: projectId, name }).delete()) > 0;
}

/** The lists each of these accounts is on. */
export async function listsOfAccounts(
  db: Knex,
  projectId: string,
  accountIds: string[],
): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>(accountIds.map((id) => [id, []]));
  for (let i = 0; i < accountIds.length; i += 500) {
    const rows = await db('list_members')
      .where({ project_id: projectId })
      .whereIn('account_id', accountIds.slice(i, i + 500))
      .select('account_id', 'list_name');
    for (const r of rows as { account_id: string; list_name: string }[]) out.get(r.account_id)?.push(r.list_name);
  }
  // In code-unit order on both engines (PostgreSQL's ORDER BY follows the database's collation).
  for (const names of out.values()) names.sort(byCodeUnits);
  return out;
}

/**
 * Adds an account to lists (creating custom ones on first use). Adding it to a standard list
 * removes it from the other two. Answers the memberships it added and removed, in order.
 */
export async function applyLists(
  db: Knex,
  projectId: string,
  accountId: string,
  names: readonly ListName[],
  at: Date,
): Promise<MembershipChange[]> {
  const changes: MembershipChange[] = [];
  for (const step of stepsToAdd(names)) {
    const rows = await runStatement(db, stepStatement(db, projectId, accountId, step, at, true));
    if (step.op !== 'create')
      for (const r of rows)
        changes.push({ change: step.op === 'add' ? 'added' : 'removed', listName: String(r.list_name) });
  }
  return changes;
}

/** Each method runs on `trx` when given, else on `db`. */
export function makeListRepository(db: Knex) {
  return {
    ensure: (projectId: string, names: { name: string; standard: boolean }[], at: Date, trx: Knex = db) =>
      ensureLists(trx, projectId, names, at),
    create: (projectId: string, name: string, description: string | undefined, at: Date, trx: Knex = db) =>
      createList(trx, projectId, name, description, at),
    all: (projectId: string, trx: Knex = db) => allLists(trx, projectId),
    find: (projectId: string, name: string, trx: Knex = db) => findList(trx, projectId, name),
    members: (projectId: string, name: string, limit: number, after: string | undefined, trx: Knex = db) =>
      listMembers(trx, projectId, name, limit, after),
    delete: (projectId: string, name: string, trx: Knex = db) => deleteList(trx, projectId, name),
    add: (projectId: string, name: string, accountId: string, at: Date, trx: Knex = db) =>
      addMember(trx, projectId, name, accountId, at),
    remove: (projectId: string, names: string[], accountId: string, trx: Knex = db) =>
      removeMembers(trx, projectId, names, accountId),
    ofAccounts: (projectId: string, accountIds: string[], trx: Knex = db) =>
      listsOfAccounts(trx, projectId, accountIds),
    apply: (projectId: string, accountId: string, names: readonly ListName[], at: Date, trx: Knex = db) =>
      applyLists(trx, projectId, accountId, names, at),
    /** A membership step as one statement, to run in the caller's transaction. */
    stepStatement: (projectId: string, accountId: string, step: MembershipStep, at: Date, returning = false) =>
      stepStatement(db, projectId, accountId, step, at, returning),
    membershipCondition,
  };
}

export type ListRepository = ReturnType<typeof makeListRepository>;
