/**
 * Lists: the standard `allow`, `block` and `main_account` lists (in every project from its
 * creation, mutually exclusive, never deleted) and custom lists (created on first use,
 * overlapping freely). Reading, or a request that is refused, never creates a list.
 */
import type { ListChange, ListPage, Lists, ListSummary } from '../api-types';
import { STANDARD_LIST_DESCRIPTIONS, STANDARD_LISTS } from '../domain/lists';
import type { Clock, Random } from '../clock';
import { AccountNotFoundError, BadRequestError, ListNotFoundError } from '../errors';
import type { Db } from '../storage/db';
import type { AccountRepository } from '../storage/repositories/accounts';
import type { ListRecord, ListRepository } from '../storage/repositories/lists';
import type { Project } from '../storage/repositories/projects';
import type { AuditEventRepository } from '../storage/repositories/audit-events';
import type { Outbox } from '../webhooks/outbox';
import type { Actor } from './actor';
import { changeMemberships } from './list-events';

export { STANDARD_LISTS };

const summary = (l: ListRecord): ListSummary => ({
  name: l.name,
  description: (l.standard ? STANDARD_LIST_DESCRIPTIONS[l.name] : l.description) ?? '',
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

export interface ListDeps {
  db: Db;
  clock: Clock;
  random: Random;
  lists: ListRepository;
  accounts: AccountRepository;
  /** Where the list events are queued, in the change's transaction (list-events.ts). */
  outbox: Outbox;
  /** Where membership changes are audited, in the same transaction (list-events.ts). */
  auditEvents: AuditEventRepository;
  /** Called once a transaction that queued a webhook has committed (webhooks/wake.ts). */
  webhooksQueued(): void;
}

export function makeListUseCases(deps: ListDeps) {
  const { db, clock, lists, accounts } = deps;
  const done = (requestId: string, message: string): ListChange => ({ request_id: requestId, success: true, message });

  return {
    async all(projectId: string, requestId: string): Promise<Lists> {
      return { request_id: requestId, lists: (await lists.all(projectId)).map(summary) };
    },

    async get(
      projectId: string,
      name: string,
      limit: number,
      after: string | undefined,
      requestId: string,
    ): Promise<ListPage> {
      const list = await lists.find(projectId, name);
      if (!list) throw new ListNotFoundError();
      return { request_id: requestId, ...summary(list), accounts: await lists.members(projectId, name, limit, after) };
    },

    async create(
      projectId: string,
      name: string,
      description: string | undefined,
      requestId: string,
    ): Promise<ListChange> {
      if (!(await lists.create(projectId, name, description, clock.now())))
        throw new BadRequestError('List already exists');
      return done(requestId, `List ${name} created`);
    },

    async delete(projectId: string, name: string, requestId: string): Promise<ListChange> {
      if (STANDARD_LISTS.includes(name))
        throw new BadRequestError(`list_name ${name} is a standard list and cannot be deleted`);
      if (!(await db.transaction((trx) => lists.delete(projectId, name, trx)))) throw new ListNotFoundError();
      return done(requestId, `List ${name} deleted`);
    },

    /** Adds the account to the list; its list events (an add, and removals from the other standard lists) are queued with it. */
    async addAccount(
      project: Project,
      name: string,
      accountId: string,
      actor: Actor,
      requestId: string,
    ): Promise<ListChange> {
      if (!(await accounts.find(project.id, accountId))) throw new AccountNotFoundError();
      const now = clock.now();
      await changeMemberships(deps, project, accountId, actor, requestId, now, (trx) =>
        lists.apply(project.id, accountId, [name], now, trx),
      );
      return done(requestId, `Account added to ${name}`);
    },

    async removeAccount(
      project: Project,
      name: string,
      accountId: string,
      actor: Actor,
      requestId: string,
    ): Promise<ListChange> {
      if (!(await lists.find(project.id, name))) throw new ListNotFoundError();
      if (!(await accounts.find(project.id, accountId))) throw new AccountNotFoundError();
      await changeMemberships(deps, project, accountId, actor, requestId, clock.now(), async (trx) => {
        if ((await lists.remove(project.id, [name], accountId, trx)) === 0)
          throw new BadRequestError(`Account is not on list ${name}`);
        return [{ change: 'removed', listName: name }];
      });
      return done(requestId, `Account removed from ${name}`);
    },
  };
}

export type ListUseCases = ReturnType<typeof makeListUseCases>;
