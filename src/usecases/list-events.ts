/**
 * The list events (`list.account_added`, `list.account_removed`, webhooks.yaml): one webhook per
 * membership a List or Account API call changed, queued in the change's own transaction for
 * the projects subscribed to it (with a webhook URL), and sent by the outbox like every webhook.
 */
import type { Random } from '../clock';
import type { Db } from '../storage/db';
import type { MembershipChange } from '../storage/repositories/lists';
import type { Project } from '../storage/repositories/projects';
import { listEvent } from '../domain/webhook-events';
import type { AuditChangeRecord, AuditEventRepository } from '../storage/repositories/audit-events';
import type { Outbox } from '../webhooks/outbox';
import { actorName, type Actor } from './actor';

export interface ListEventDeps {
  db: Db;
  random: Random;
  outbox: Outbox;
  /** Each call's membership changes are one `account.lists_changed` audit event, in the same transaction. */
  auditEvents: AuditEventRepository;
  /** Called once a transaction that queued a webhook has committed (webhooks/wake.ts). */
  webhooksQueued(): void;
}

/** The memberships one account's change added and removed. */
export interface AccountMemberships {
  accountId: string;
  changes: readonly MembershipChange[];
}

/** An audit event of membership changes, as a change describes it. */
export interface MembershipAudit {
  action: string;
  accountId: string;
  changes: AuditChangeRecord[];
}

/** The `account.lists_changed` event of one account's changes; none when it changed none. */
export function listsChangedAudit(
  accountId: string,
  changes: readonly MembershipChange[],
): MembershipAudit | undefined {
  if (changes.length === 0) return undefined;
  return {
    action: 'account.lists_changed',
    accountId,
    changes: changes.map((c) => ({
      field: 'list',
      before: c.change === 'removed' ? c.listName : null,
      after: c.change === 'added' ? c.listName : null,
    })),
  };
}

/**
 * Runs `change` (which answers the memberships it changed) in a transaction that also records
 * them in the audit (one `account.lists_changed` event, when it changed any) and queues their
 * list events, and wakes this process's dispatcher once it has committed, if it queued any.
 */
export async function changeMemberships(
  deps: ListEventDeps,
  project: Pick<Project, 'id' | 'webhookUrl' | 'webhookEvents'>,
  accountId: string,
  actor: Actor,
  requestId: string | null,
  now: Date,
  change: (trx: Db) => Promise<readonly MembershipChange[]>,
): Promise<void> {
  await changeManyMemberships(
    deps,
    project,
    actor,
    requestId,
    now,
    async (trx) => [{ accountId, changes: await change(trx) }],
    ([one]) => one && listsChangedAudit(accountId, one.changes),
  );
}

/**
 * The one home of list changes: runs `change` (the memberships it changed, per account) in a
 * transaction that also records them (recordMemberships), and wakes this process's dispatcher
 * once it has committed, if it queued any. Answers what `change` changed.
 */
export async function changeManyMemberships(
  deps: ListEventDeps,
  project: Pick<Project, 'id' | 'webhookUrl' | 'webhookEvents'>,
  actor: Actor,
  requestId: string | null,
  now: Date,
  change: (trx: Db) => Promise<readonly AccountMemberships[]>,
  audit: (changed: readonly AccountMemberships[]) => MembershipAudit | undefined,
): Promise<readonly AccountMemberships[]> {
  const { changed, queued } = await deps.db.transaction(async (trx) => {
    const changed = await change(trx);
    const queued = await recordMemberships(deps, project, actor, requestId, now, changed, audit(changed), trx);
    return { changed, queued };
  });
  // After the commit, never inside the transaction: a dispatcher woken earlier would not see the rows yet.
  if (queued > 0) deps.webhooksQueued();
  return changed;
}

/**
 * Records membership changes in the caller's transaction: the audit event `event` (when there
 * is one) and their list events. Answers how many events it queued: the caller wakes the
 * dispatcher once its transaction has committed, if any.
 */
export async function recordMemberships(
  deps: Pick<ListEventDeps, 'random' | 'outbox' | 'auditEvents'>,
  project: Pick<Project, 'id' | 'webhookUrl' | 'webhookEvents'>,
  actor: Actor,
  requestId: string | null,
  now: Date,
  changed: readonly AccountMemberships[],
  event: MembershipAudit | undefined,
  trx: Db,
): Promise<number> {
  const who = actorName(actor);
  if (event)
    await deps.auditEvents.insert(
      { id: deps.random.uuid(), projectId: project.id, actor: who, requestId, createdAt: now, ...event },
      trx,
    );
  let queued = 0;
  for (const c of changed) queued += await queueListEvents(deps, project, c.accountId, c.changes, who, now, trx);
  return queued;
}

/** Queues the events of `changes` the project is subscribed to, in `trx`; answers how many it queued. */
async function queueListEvents(
  deps: Pick<ListEventDeps, 'random' | 'outbox'>,
  project: Pick<Project, 'id' | 'webhookUrl' | 'webhookEvents'>,
  accountId: string,
  changes: readonly MembershipChange[],
  actor: string,
  now: Date,
  trx: Db,
): Promise<number> {
  let queued = 0;
  for (const { change, listName } of changes) {
    const webhook = listEvent(project, { change, accountId, listName, actor }, now, () => deps.random.uuid());
    if (!webhook) continue;
    await deps.outbox.enqueue(webhook, trx);
    queued++;
  }
  return queued;
}
