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

/** Creates the lists that do not exist yet (standard ones marked so); existing ones are left alone. */
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

export function makeListRepository(db: Knex) {
  /**
   * A membership step as one statement (domain/lists.ts). With `returning`, a remove or an add
   * returns the list_name of each membership it changed (an add of a membership that was there: none).
   */
  function stepStatement(projectId: string, accountId: string, step: MembershipStep, at: Date, returning = false) {
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

  const repo = {
    /** Creates the lists that do not exist yet (standard ones marked so); existing ones are left alone. */
    async ensure(
      projectId: string,
      names: { name: string; standard: boolean }[],
      at: Date,
      trx: Knex = db,
    ): Promise<void> {
      if (names.length > 0) await ensureQuery(trx, projectId, names, at);
    },

    /** Creates a custom list; false when the project has a list of that name already. */
    async create(projectId: string, name: string, description: string | undefined, at: Date, trx: Knex = db) {
      const inserted = await trx('lists')
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
    },

    async all(projectId: string, trx: Knex = db): Promise<ListRecord[]> {
      const rows = await trx('lists as l')
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
    },

    async find(projectId: string, name: string, trx: Knex = db): Promise<ListRecord | undefined> {
      const row = await trx('lists').where({ project_id: projectId, name }).first();
      if (!row) return undefined;
      const count = await trx('list_members')
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
    },

    /** A page of the list's account ids, in id order, after `after`. */
    async members(
      projectId: string,
      name: string,
      limit: number,
      after: string | undefined,
      trx: Knex = db,
    ): Promise<string[]> {
      const q = trx('list_members')
        .where({ project_id: projectId, list_name: name })
        .orderBy('account_id')
        .limit(limit)
        .select('account_id');
      if (after !== undefined) q.where('account_id', '>', after);
      return (await q).map((r: { account_id: string }) => r.account_id);
    },

    async delete(projectId: string, name: string, trx: Knex = db): Promise<boolean> {
      await trx('list_members').where({ project_id: projectId, list_name: name }).delete();
      return (await trx('lists').where({ project_id: projectId, name }).delete()) > 0;
    },

    async add(projectId: string, name: string, accountId: string, at: Date, trx: Knex = db): Promise<void> {
      await addQuery(trx, projectId, name, accountId, at);
    },

    async remove(projectId: string, names: string[], accountId: string, trx: Knex = db): Promise<number> {
      return removeQuery(trx, projectId, names, accountId);
    },

    /** The lists each of these accounts is on. */
    async ofAccounts(projectId: string, accountIds: string[], trx: Knex = db): Promise<Map<string, string[]>> {
      const out = new Map<string, string[]>(accountIds.map((id) => [id, []]));
      for (let i = 0; i < accountIds.length; i += 500) {
        const rows = await trx('list_members')
          .where({ project_id: projectId })
          .whereIn('account_id', accountIds.slice(i, i + 500))
          .select('account_id', 'list_name');
        for (const r of rows as { account_id: string; list_name: string }[]) out.get(r.account_id)?.push(r.list_name);
      }
      // In code-unit order on both engines (PostgreSQL's ORDER BY follows the database's collation).
      for (const names of out.values()) names.sort(byCodeUnits);
      return out;
    },

    /**
     * Adds an account to lists (creating custom ones on first use). Adding it to a standard list
     * removes it from the other two. Answers the memberships it added and removed, in order.
     */
    async apply(
      projectId: string,
      accountId: string,
      names: readonly ListName[],
      at: Date,
      trx: Knex = db,
    ): Promise<MembershipChange[]> {
      const changes: MembershipChange[] = [];
      for (const step of stepsToAdd(names)) {
        const rows = await runStatement(trx, stepStatement(projectId, accountId, step, at, true));
        if (step.op !== 'create')
          for (const r of rows)
            changes.push({ change: step.op === 'add' ? 'added' : 'removed', listName: String(r.list_name) });
      }
      return changes;
    },

    /** A membership step as one statement, to run in the caller's transaction. */
    stepStatement,

    /** An SQL condition: the account is (`present`) or is not on the list, when the statement runs. */
    membershipCondition(projectId: string, accountId: string, list: string, present: boolean): Statement {
      return {
        sql: `${present ? '' : 'NOT '}EXISTS (SELECT 1 FROM list_members WHERE project_id = ? AND list_name = ? AND account_id = ?)`,
        bindings: [projectId, list, accountId],
      };
    },
  };
  return repo;
}

export type ListRepository = ReturnType<typeof makeListRepository>;
