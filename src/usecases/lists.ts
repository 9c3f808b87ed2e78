/**
 * Lists: the standard `allow`, `block` and `main_account` lists (in every project from its
 * creation, mutually exclusive, never deleted) and custom lists (created on first use,
 * overlapping freely). Reading, or a request that is refused, never creates a list.
 */
import type { ListName, ListPage, Lists, ListSummary } from '../api-types';
import { STANDARD_LISTS } from '../domain/lists';
import type { Clock } from '../clock';
import { BadRequestError, NotFoundError } from '../errors';
import type { Db } from '../storage/db';
import type { AccountRepository } from '../storage/repositories/accounts';
import type { ListRecord, ListRepository } from '../storage/repositories/lists';

export { STANDARD_LISTS };

const summary = (l: ListRecord): ListSummary => ({
  name: l.name,
  standard: l.standard,
  num_accounts: l.numAccounts,
  created_at: l.createdAt.toISOString(),
});

/** The standard lists of a new project, created in the project's own transaction. */
export async function createStandardLists(lists: ListRepository, projectId: string, at: Date, trx: Db): Promise<void> {
  await lists.ensure(
    projectId,
    STANDARD_LISTS.map((name) => ({ name, standard: true })),
    at,
    trx,
  );
}

import { applyAccountLists } from '../storage/repositories/lists';

export { applyAccountLists };

export function makeListUseCases(deps: { db: Db; clock: Clock; lists: ListRepository; accounts: AccountRepository }) {
  const { db, clock, lists, accounts } = deps;
  const notFound = (name: string) => new NotFoundError('List', name);

  return {
    async all(projectId: string): Promise<Lists> {
      return { lists: (await lists.all(projectId)).map(summary) };
    },

    async get(projectId: string, name: string, limit: number, after?: string): Promise<ListPage> {
      const list = await lists.find(projectId, name);
      if (!list) throw notFound(name);
      return { ...summary(list), account_ids: await lists.members(projectId, name, limit, after) };
    },

    async create(projectId: string, name: string): Promise<ListSummary> {
      await lists.ensure(projectId, [{ name, standard: false }], clock.now());
      return summary((await lists.find(projectId, name))!);
    },

    async delete(projectId: string, name: string): Promise<void> {
      if (STANDARD_LISTS.includes(name))
        throw new BadRequestError(`list_name ${name} is a standard list and cannot be deleted`);
      if (!(await db.transaction((trx) => lists.delete(projectId, name, trx)))) throw notFound(name);
    },

    async addAccount(projectId: string, name: string, accountId: string): Promise<void> {
      if (!(await accounts.find(projectId, accountId))) throw new NotFoundError('Account', accountId);
      await db.transaction((trx) => applyAccountLists(lists, projectId, accountId, [name], clock.now(), trx));
    },

    async removeAccount(projectId: string, name: string, accountId: string): Promise<void> {
      if (!(await lists.find(projectId, name))) throw notFound(name);
      await lists.remove(projectId, [name], accountId);
    },
  };
}

export type ListUseCases = ReturnType<typeof makeListUseCases>;
