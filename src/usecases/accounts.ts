/** The Account endpoints: read, update, erase, sessions, linked accounts. */
import type {
  AccountDeleted,
  AccountLinks,
  AccountRead,
  AccountResponse,
  AccountSessions,
  AccountVerification,
  AccountVerifications,
  Decision,
  StoredAccount,
} from '../api-types';
import type { Clock, Random } from '../clock';
import { AccountNotFoundError, BadRequestError } from '../errors';
import { currentFlags } from '../domain/verification/stored';
import { listDecision } from '../domain/scoring';
import { overwriteErased, type Db } from '../storage/db';
import { CONSOLE_MEDIA_URL_LIFETIME_MS, type MediaUrls } from '../storage/media';
import type { AccountRecord, AccountRepository } from '../storage/repositories/accounts';
import type { AuditEventRepository } from '../storage/repositories/audit-events';
import type { EvaluationStore } from '../storage/evaluation-store';
import type { CaseRepository } from '../storage/repositories/cases';
import type { LabelRepository } from '../storage/repositories/labels';
import type { ListRepository } from '../storage/repositories/lists';
import type { ReceiptRepository } from '../storage/repositories/receipts';
import type { CaptureRecord, VerificationRecord, VerificationRepository } from '../storage/repositories/verifications';
import type { Project } from '../storage/repositories/projects';
import type { Outbox } from '../webhooks/outbox';
import type { EvaluationUseCases } from './evaluation';
import { labelOf } from './labels';
import { actorName, type Actor } from './actor';
import { changeMemberships } from './list-events';
import { withDeps } from '../with-deps';

export interface AccountDeps {
  db: Db;
  clock: Clock;
  accounts: AccountRepository;
  lists: ListRepository;
  receipts: ReceiptRepository;
  store: Pick<EvaluationStore, 'accountSessions'>;
  evaluation: EvaluationUseCases;
  random: Random;
  /** The account's current label is shown with it; erasure deletes its labels. */
  labels: LabelRepository;
  /** Erasure takes the account out of its cases. */
  cases: CaseRepository;
  /** Erasure removes the account from the audit of its labels. */
  auditEvents: AuditEventRepository;
  /** A PUT's list changes queue their list events here (list-events.ts). */
  outbox: Outbox;
  /** Called once a transaction that queued a webhook has committed (webhooks/wake.ts). */
  webhooksQueued(): void;
  /** Erases the account's verification data (results, images, enrolled face and document); true when there was some. */
  forgetVerifications(projectId: string, accountId: string): Promise<boolean>;
  /** The account's verification sessions are read here, their images signed by mediaUrls. */
  verifications: VerificationRepository;
  mediaUrls: MediaUrls;
}

/** What the account page shows of a stored verification result (the rest is the webhook's). */
interface ResultSummary {
  decision?: Decision;
  risk_score?: number;
  risk_flags?: string[];
  document_signals?: { id_validity?: string };
}

/** An account's members as the Account and Search APIs report them (`StoredAccount`). */
export function storedAccountOf(r: AccountRecord): StoredAccount {
  return {
    id: r.id,
    ...(r.email !== undefined ? { email: r.email } : {}),
    ...(r.phone !== undefined ? { phone: r.phone } : {}),
    ...(r.firstName !== undefined ? { first_name: r.firstName } : {}),
    ...(r.lastName !== undefined ? { last_name: r.lastName } : {}),
    ...(r.username !== undefined ? { username: r.username } : {}),
    expected_countries: r.expectedCountries,
    metadata: r.metadata,
    group: r.group ?? '',
  };
}

/**
 * The accounts' erasure in the database, in the caller's transaction: each one's labels (whose
 * notes are personal data), its cases (domain/cases: a case left without accounts goes with its
 * notes), its name in the audit, its row, links, identifiers and memberships
 * (accounts.delete), and its id in the stored webhook events that named it (outbox, erasure.ts:
 * once for all of them, since that reads the project's outbox). `DELETE /account` runs it, and
 * retention for the accounts whose last session went. The ids of those that existed.
 */
export async function eraseAccounts(
  deps: Pick<AccountDeps, 'labels' | 'cases' | 'auditEvents' | 'accounts' | 'outbox'>,
  projectId: string,
  ids: readonly string[],
  trx: Db,
): Promise<string[]> {
  const erased: string[] = [];
  for (const id of ids) {
    await deps.labels.forgetAccount(projectId, id, trx);
    await deps.cases.forgetAccount(projectId, id, trx);
    await deps.auditEvents.forgetAccount(projectId, id, trx);
    if (await deps.accounts.delete(projectId, id, trx)) erased.push(id);
  }
  // An account with verifications only (no row) was named by their events too.
  await deps.outbox.redactAccounts(projectId, ids, trx);
  return erased;
}

export function makeAccountUseCases(deps: AccountDeps) {
  const bound = withDeps(deps);
  return {
    get: bound(getAccount),
    put: bound(putAccount),
    delete: bound(deleteAccount),
    sessions: bound(accountSessions),
    verifications: bound(accountVerifications),
    linked: bound(linkedAccounts),
  };
}

export type AccountUseCases = ReturnType<typeof makeAccountUseCases>;

async function found(deps: AccountDeps, project: Project, id: string): Promise<AccountRecord> {
  const record = await deps.accounts.find(project.id, id);
  if (!record) throw new AccountNotFoundError();
  return record;
}

/** The account as the Account API reports it: its row, its lists, its details and links as of now. */
async function view(
  deps: AccountDeps,
  project: Project,
  r: AccountRecord,
  requestId: string,
): Promise<AccountResponse> {
  const [memberships, { details, linked }, label] = await Promise.all([
    deps.lists.ofAccounts(project.id, [r.id]),
    deps.evaluation.accountDetails(project, r),
    deps.labels.current(project.id, r.id),
  ]);
  // An account without sessions (an earlier release's PUT made it) has no last session.
  const { account: _brief, last_session, ...history } = details;
  const lists = memberships.get(r.id) ?? [];
  const decided = listDecision(lists);
  return {
    project_id: project.id,
    request_id: requestId,
    account: storedAccountOf(r),
    ...history,
    ...(last_session ? { last_session } : {}),
    ...(r.decision ? { decision: r.decision } : {}),
    ...(r.lastEvaluation
      ? { last_evaluation: { request_id: r.lastEvaluation.requestId, created_at: r.lastEvaluation.at.toISOString() } }
      : {}),
    ...(decided ? { list_decision: decided } : {}),
    ...r.scores,
    accounts_linked: linked,
    lists,
    ...(label ? { label: labelOf(label) } : {}),
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
  };
}

async function getAccount(
  deps: AccountDeps,
  project: Project,
  id: string,
  requestId: string,
): Promise<AccountResponse> {
  return view(deps, project, await found(deps, project, id), requestId);
}

/** Updates an existing account; the body's id must be the path's. Its list changes queue their list events. */
async function putAccount(
  deps: AccountDeps,
  project: Project,
  id: string,
  body: AccountRead,
  actor: Actor,
  requestId: string,
): Promise<AccountResponse> {
  const { id: bodyId, ...input } = body;
  if (bodyId !== id)
    throw new BadRequestError(`request/body/id must be the account_id of the path (${JSON.stringify(id)})`);
  const record = deps.evaluation.applyInput(project, await found(deps, project, id), input, id, '');
  const now = deps.clock.now();
  await changeMemberships(deps, project, id, actor, requestId, now, async (trx) => {
    await deps.accounts.upsert(record, trx);
    return deps.lists.apply(project.id, id, input.lists ?? [], now, trx);
  });
  return view(deps, project, await found(deps, project, id), requestId);
}

/**
 * Erases the account: its personal data, links, memberships and labels (whose notes are
 * personal data), and on SQLite what the file kept of them in free pages and the log. The
 * erasure is audited as `account.erased` in its transaction, naming who erased and the request,
 * never the account (its id is personal data).
 */
async function deleteAccount(
  deps: AccountDeps,
  project: Project,
  id: string,
  actor: Actor,
  requestId: string,
): Promise<AccountDeleted> {
  const verified = await deps.forgetVerifications(project.id, id);
  // Its sessions' receipts are forgotten (they name it); the sessions' decisions stay.
  const deleted = await deps.db.transaction(async (trx) => {
    await deps.receipts.deleteForAccount(project.id, id, trx);
    const erased = (await eraseAccounts(deps, project.id, [id], trx)).length > 0;
    if (erased || verified)
      await deps.auditEvents.insert(
        {
          id: deps.random.uuid(),
          projectId: project.id,
          actor: actorName(actor),
          action: 'account.erased',
          requestId,
          changes: [],
          createdAt: deps.clock.now(),
        },
        trx,
      );
    return erased;
  });
  if (!deleted && !verified) throw new AccountNotFoundError();
  // Committed: what the file keeps of the erased rows outside its live pages goes too.
  await overwriteErased(deps.db);
  return { request_id: requestId, account_id: id, success: true };
}

async function accountSessions(
  deps: AccountDeps,
  project: Project,
  id: string,
  limit: number,
  requestId: string,
): Promise<AccountSessions> {
  await found(deps, project, id);
  const rows = await deps.store.accountSessions(project.id, id, limit);
  return { request_id: requestId, account_id: id, sessions: rows.map((r) => r.id) };
}

/** The account's verification sessions, newest first, their images signed for 5 minutes. */
async function accountVerifications(
  deps: AccountDeps,
  project: Project,
  id: string,
  limit: number,
  requestId: string,
): Promise<AccountVerifications> {
  await found(deps, project, id);
  const records = await deps.verifications.ofAccount(project.id, id, limit);
  const captures = await deps.verifications.latestCapturesOf(records.map((r) => r.id));
  const verifications = await Promise.all(records.map((r) => verificationOf(deps, r, captures.get(r.id) ?? [])));
  return { request_id: requestId, account_id: id, verifications };
}

/** One verification session as the account page shows it, with its latest captures' images (none once erased). */
async function verificationOf(
  deps: AccountDeps,
  r: VerificationRecord & { mediaErased: boolean },
  captures: readonly CaptureRecord[],
): Promise<AccountVerification> {
  const result = (r.result ?? {}) as ResultSummary;
  const images = r.mediaErased
    ? []
    : await Promise.all(
        captures.map(async (c) => {
          const signed = await deps.mediaUrls.signId(c.mediaId, CONSOLE_MEDIA_URL_LIFETIME_MS);
          return { kind: c.kind, url: signed.url, expires_at: signed.expiresAt.toISOString() };
        }),
      );
  return {
    session_id: r.id,
    type: r.type,
    state: r.state,
    outcome: r.outcome ?? null,
    ...(result.decision ? { decision: result.decision } : {}),
    ...(typeof result.risk_score === 'number' ? { risk_score: result.risk_score } : {}),
    // Under today's names, whichever release stored it.
    risk_flags: currentFlags(result.risk_flags ?? [], result.document_signals?.id_validity),
    created_at: r.createdAt.toISOString(),
    ended_at: r.endedAt ? r.endedAt.toISOString() : null,
    media_erased: r.mediaErased,
    images,
  };
}

async function linkedAccounts(
  deps: AccountDeps,
  project: Project,
  id: string,
  requestId: string,
): Promise<AccountLinks> {
  const linked = await deps.evaluation.linked(project, await found(deps, project, id));
  return { request_id: requestId, account_id: id, accounts_linked: linked };
}
