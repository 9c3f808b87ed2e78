/**
 * An account's ring (GET /account/{account_id}/ring) and blocking it
 * (POST /account/{account_id}/ring/block): gather the links and accounts (the evaluation's
 * reads) and the labels → assemble the ring (domain/linking/ring.ts, pure) → respond; a block
 * then writes the ring's memberships through the one home of list changes (list-events.ts).
 */
import type { AccountRing, RingBlocked, RingBlockRequest } from '../api-types';
import type { Clock, Random } from '../clock';
import { assembleRing, ringBlockAudit, ringBlockTargets, type RingHops } from '../domain/linking/ring';
import { AccountNotFoundError, BadRequestError } from '../errors';
import type { Db } from '../storage/db';
import type { AccountRepository } from '../storage/repositories/accounts';
import type { AuditEventRepository } from '../storage/repositories/audit-events';
import type { LabelRepository } from '../storage/repositories/labels';
import type { ListRepository } from '../storage/repositories/lists';
import type { Project } from '../storage/repositories/projects';
import type { Outbox } from '../webhooks/outbox';
import { withDeps } from '../with-deps';
import type { Actor } from './actor';
import type { EvaluationUseCases } from './evaluation';
import { changeManyMemberships } from './list-events';

export interface RingDeps {
  db: Db;
  clock: Clock;
  random: Random;
  accounts: Pick<AccountRepository, 'find'>;
  evaluation: Pick<EvaluationUseCases, 'ringLinks'>;
  labels: Pick<LabelRepository, 'currentOf'>;
  lists: Pick<ListRepository, 'apply'>;
  /** The block's list events are queued here, and its audit written, in its transaction. */
  outbox: Outbox;
  auditEvents: AuditEventRepository;
  /** Called once a transaction that queued a webhook has committed (webhooks/wake.ts). */
  webhooksQueued(): void;
}

export function makeRingUseCases(deps: RingDeps) {
  const bound = withDeps(deps);
  return { get: bound(getRing), block: bound(blockRing) };
}

export type RingUseCases = ReturnType<typeof makeRingUseCases>;

/** The ring as read now: links, accounts and labels gathered, then assembled. */
async function ringOf(deps: RingDeps, project: Project, id: string, hops: RingHops) {
  const record = await deps.accounts.find(project.id, id);
  if (!record) throw new AccountNotFoundError();
  const { links, linksOfFirst, accounts } = await deps.evaluation.ringLinks(project, record, hops);
  const labels = await deps.labels.currentOf(project.id, [...accounts.keys()]);
  const group = { enabled: project.groupsEnabled, name: record.group };
  return assembleRing({ accountId: id, hops, links, linksOfFirst, accounts, labels, group });
}

async function getRing(
  deps: RingDeps,
  project: Project,
  id: string,
  hops: RingHops,
  requestId: string,
): Promise<AccountRing> {
  return { request_id: requestId, ...(await ringOf(deps, project, id, hops)) };
}

/**
 * Puts the ring's accounts (or those confirmed, each in the ring) on `block` in one transaction,
 * with one `ring.blocked` audit event and their list events; with `dry_run`, only says what it
 * would do. An account outside the ring is a 400 naming it, and nothing is written.
 */
async function blockRing(
  deps: RingDeps,
  project: Project,
  id: string,
  body: RingBlockRequest,
  actor: Actor,
  requestId: string,
): Promise<RingBlocked> {
  const hops: RingHops = body.hops === 1 ? 1 : 2;
  const ring = await ringOf(deps, project, id, hops);
  const { targets, outside, alreadyBlocked } = ringBlockTargets(ring, body.account_ids);
  if (outside.length > 0)
    throw new BadRequestError(
      `request/body/account_ids: not in the ring of ${id} to ${hops} hop${hops === 1 ? '' : 's'}: ${outside.join(', ')}`,
    );
  const answer = { request_id: requestId, account_id: id, hops, account_ids: targets };
  if (body.dry_run === true)
    return { ...answer, dry_run: true, added: targets.length - alreadyBlocked, already_blocked: alreadyBlocked };
  const now = deps.clock.now();
  const joinedBlock = (c: { changes: readonly { change: string; listName: string }[] }) =>
    c.changes.some((m) => m.change === 'added' && m.listName === 'block');
  const changed = await changeManyMemberships(
    deps,
    project,
    actor,
    requestId,
    now,
    async (trx) => {
      const out = [];
      for (const accountId of targets)
        out.push({ accountId, changes: await deps.lists.apply(project.id, accountId, ['block'], now, trx) });
      return out;
    },
    (all) => {
      const added = all.filter(joinedBlock).map((c) => c.accountId);
      return added.length > 0 ? { action: 'ring.blocked', accountId: id, changes: ringBlockAudit(added) } : undefined;
    },
  );
  const added = changed.filter(joinedBlock).length;
  return { ...answer, dry_run: false, added, already_blocked: targets.length - added };
}
