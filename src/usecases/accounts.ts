/** The Account endpoints: read, update, erase, sessions, linked accounts. */
import type { AccountDeleted, AccountLinks, AccountResponse, AccountSessions, AccountInput } from '../api-types';
import type { Clock } from '../clock';
import { AccountNotFoundError, BadRequestError } from '../errors';
import type { Db } from '../storage/db';
import type { AccountRecord, AccountRepository } from '../storage/repositories/accounts';
import type { EvaluationFactsRepository } from '../storage/repositories/evaluation-facts';
import type { ListRepository } from '../storage/repositories/lists';
import type { ReceiptRepository } from '../storage/repositories/receipts';
import type { Project } from '../storage/repositories/projects';
import type { EvaluationUseCases } from './evaluation';

export interface AccountDeps {
  db: Db;
  clock: Clock;
  accounts: AccountRepository;
  lists: ListRepository;
  receipts: ReceiptRepository;
  facts: EvaluationFactsRepository;
  evaluation: EvaluationUseCases;
  /** Erases the account's verification data (results, images, enrolled face and document); true when there was some. */
  forgetVerifications(projectId: string, accountId: string): Promise<boolean>;
}

export function makeAccountUseCases(deps: AccountDeps) {
  const { db, clock, accounts, lists, receipts, evaluation } = deps;

  async function found(project: Project, id: string): Promise<AccountRecord> {
    const record = await accounts.find(project.id, id);
    if (!record) throw new AccountNotFoundError();
    return record;
  }

  /** The account as the Account API reports it: its row, its lists, its details and links as of now. */
  async function view(project: Project, r: AccountRecord, requestId: string): Promise<AccountResponse> {
    const [memberships, { details, linked }] = await Promise.all([
      lists.ofAccounts(project.id, [r.id]),
      evaluation.accountDetails(project, r),
    ]);
    // An account without sessions (an earlier release's PUT made it) has no last session.
    const { account: _brief, last_session, ...history } = details;
    return {
      project_id: project.id,
      request_id: requestId,
      account: {
        id: r.id,
        ...(r.email !== undefined ? { email: r.email } : {}),
        ...(r.phone !== undefined ? { phone: r.phone } : {}),
        ...(r.firstName !== undefined ? { first_name: r.firstName } : {}),
        ...(r.lastName !== undefined ? { last_name: r.lastName } : {}),
        ...(r.username !== undefined ? { username: r.username } : {}),
        expected_countries: r.expectedCountries,
        metadata: r.metadata,
        group: r.group ?? '',
      },
      ...history,
      ...(last_session ? { last_session } : {}),
      ...(r.decision ? { decision: r.decision } : {}),
      ...r.scores,
      accounts_linked: linked,
      lists: memberships.get(r.id) ?? [],
      created_at: r.createdAt.toISOString(),
      updated_at: r.updatedAt.toISOString(),
    };
  }

  return {
    async get(project: Project, id: string, requestId: string): Promise<AccountResponse> {
      return view(project, await found(project, id), requestId);
    },

    /** Updates an existing account; the body's id must be the path's. */
    async put(project: Project, id: string, body: AccountInput, requestId: string): Promise<AccountResponse> {
      const { id: bodyId, ...input } = body;
      if (bodyId !== id)
        throw new BadRequestError(`request/body/id must be the account_id of the path (${JSON.stringify(id)})`);
      const record = evaluation.applyInput(project, await found(project, id), input, id, '');
      await db.transaction(async (trx) => {
        await accounts.upsert(record, trx);
        await lists.apply(project.id, id, input.lists ?? [], clock.now(), trx);
      });
      return view(project, await found(project, id), requestId);
    },

    async delete(project: Project, id: string, requestId: string): Promise<AccountDeleted> {
      const verified = await deps.forgetVerifications(project.id, id);
      // The account's receipts go with it (they name it, and hold its evaluations' inputs).
      const deleted = await db.transaction(async (trx) => {
        await receipts.deleteForAccount(project.id, id, trx);
        return accounts.delete(project.id, id, trx);
      });
      if (!deleted && !verified) throw new AccountNotFoundError();
      return { request_id: requestId, account_id: id, success: true };
    },

    async sessions(project: Project, id: string, limit: number, requestId: string): Promise<AccountSessions> {
      await found(project, id);
      const rows = await deps.facts.accountSessions(project.id, id, limit);
      return { request_id: requestId, account_id: id, sessions: rows.map((r) => r.id) };
    },

    async linked(project: Project, id: string, requestId: string): Promise<AccountLinks> {
      const linked = await evaluation.linked(project, await found(project, id));
      return { request_id: requestId, account_id: id, accounts_linked: linked };
    },
  };
}

export type AccountUseCases = ReturnType<typeof makeAccountUseCases>;
