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
import type { AuditEventRepository } from '../storage/repositories/audit-events';
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
  const queued = await deps.db.transaction(async (trx) => {
    const changes = await change(trx);
    return recordMemberships(deps, project, accountId, actor, requestId, now, changes, trx);
  });
  // After the commit, never inside the transaction: a dispatcher woken earlier would not see the rows yet.
  if (queued > 0) deps.webhooksQueued();
}

/**
 * Records `changes` in the caller's transaction: one `account.lists_changed` audit event (when
 * there are any) and their list events. Answers how many events it queued: the caller wakes the
 * dispatcher once its transaction has committed, if any.
 */
export async function recordMemberships(
  deps: Omit<ListEventDeps, 'db' | 'webhooksQueued'>,
  project: Pick<Project, 'id' | 'webhookUrl' | 'webhookEvents'>,
  accountId: string,
  actor: Actor,
  requestId: string | null,
  now: Date,
  changes: readonly MembershipChange[],
  trx: Db,
): Promise<number> {
  const who = actorName(actor);
  if (changes.length > 0)
    await deps.auditEvents.insert(
      {
        id: deps.random.uuid(),
        projectId: project.id,
        actor: who,
        action: 'account.lists_changed',
        requestId,
        accountId,
        changes: changes.map((c) => ({
          field: 'list',
          before: c.change === 'removed' ? c.listName : null,
          after: c.change === 'added' ? c.listName : null,
        })),
        createdAt: now,
      },
      trx,
    );
  return queueListEvents(deps, project, accountId, changes, who, now, trx);
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
