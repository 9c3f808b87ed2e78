/** The Account endpoints: read, create or update, erase, sessions, linked accounts. */
import type { Account, AccountLinks, AccountSessions, AccountUpdate } from '../api-types';
import type { Clock } from '../clock';
import { NotFoundError } from '../errors';
import type { Db } from '../storage/db';
import type { AccountRecord, AccountRepository } from '../storage/repositories/accounts';
import type { EvaluationFactsRepository } from '../storage/repositories/evaluation-facts';
import type { HistoryRepository } from '../storage/repositories/history';
import type { ListRepository } from '../storage/repositories/lists';
import type { Project } from '../storage/repositories/projects';
import type { EvaluationUseCases } from './evaluation';
import { applyAccountLists } from './lists';

export interface AccountDeps {
  db: Db;
  clock: Clock;
  accounts: AccountRepository;
  lists: ListRepository;
  history: HistoryRepository;
  facts: EvaluationFactsRepository;
  evaluation: EvaluationUseCases;
  /** Erases the account's verification data (results, images, enrolled face and document); true when there was some. */
  forgetVerifications(projectId: string, accountId: string): Promise<boolean>;
}

export function makeAccountUseCases(deps: AccountDeps) {
  const { db, clock, accounts, lists, history, evaluation } = deps;

  async function found(project: Project, id: string): Promise<AccountRecord> {
    const record = await accounts.find(project.id, id);
    if (!record) throw new NotFoundError('Account', id);
    return record;
  }

  async function view(project: Project, r: AccountRecord): Promise<Account> {
    const memberships = await lists.ofAccounts(project.id, [r.id]);
    const summary = r.aggregates;
    return {
      account_id: r.id,
      ...(r.email !== undefined ? { email: r.email } : {}),
      ...(r.phone !== undefined ? { phone: r.phone } : {}),
      ...(r.firstName !== undefined ? { first_name: r.firstName } : {}),
      ...(r.lastName !== undefined ? { last_name: r.lastName } : {}),
      ...(r.username !== undefined ? { username: r.username } : {}),
      expected_countries: r.expectedCountries,
      metadata: r.metadata,
      ...(r.group !== undefined ? { group: r.group } : {}),
      lists: memberships.get(r.id) ?? [],
      ...(r.decision ? { decision: r.decision } : {}),
      num_sessions: summary.numSessions,
      ...(summary.firstSeen ? { first_seen: summary.firstSeen.toISOString() } : {}),
      ...(summary.lastSeen ? { last_seen: summary.lastSeen.toISOString() } : {}),
      created_at: r.createdAt.toISOString(),
      updated_at: r.updatedAt.toISOString(),
    };
  }

  return {
    async get(project: Project, id: string): Promise<Account> {
      return view(project, await found(project, id));
    },

    async put(project: Project, id: string, body: AccountUpdate): Promise<Account> {
      const record = evaluation.applyInput(project, await accounts.find(project.id, id), body, id, '');
      const listInput = body.lists;
      await db.transaction(async (trx) => {
        await accounts.upsert(record, trx);
        await applyAccountLists(lists, project.id, id, listInput ?? [], clock.now(), trx);
      });
      return view(project, (await accounts.find(project.id, id))!);
    },

    async delete(project: Project, id: string): Promise<void> {
      const verified = await deps.forgetVerifications(project.id, id);
      const deleted = await db.transaction((trx) => accounts.delete(project.id, id, trx));
      if (!deleted && !verified) throw new NotFoundError('Account', id);
    },

    async sessions(project: Project, id: string, limit: number): Promise<AccountSessions> {
      await found(project, id);
      const rows = await deps.facts.accountSessions(project.id, id, limit);
      const evaluations = await history.evaluations(
        project.id,
        rows.map((r) => r.id),
      );
      return {
        account_id: id,
        sessions: rows.map((r) => {
          const e = evaluations.get(r.id);
          return {
            session_id: r.id,
            start_time: r.startTime.toISOString(),
            device_id: r.deviceId,
            ip_address: r.ipAddress,
            ...(r.countryCode ? { country_code: r.countryCode } : {}),
            ...(e ? { decision: e.decision, account_score: e.accountScore } : {}),
          };
        }),
      };
    },

    async linked(project: Project, id: string): Promise<AccountLinks> {
      const { count, linked_accounts } = await evaluation.linked(project, await found(project, id));
      return { account_id: id, accounts_linked: count, linked_accounts };
    },
  };
}

export type AccountUseCases = ReturnType<typeof makeAccountUseCases>;
