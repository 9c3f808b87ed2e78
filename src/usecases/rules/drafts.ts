/**
 * Drafts of the rules document and their approval (docs/rules.md, "Drafts and four-eyes"): an
 * analyst or admin proposes a whole document over the version read; an admin other than its
 * author publishes it (stored as the next version by document.ts's one path, the draft's
 * decision in the same transaction) or rejects it with a reason. Each step is audited. The
 * diff, the status and the four-eyes rule are domain/rules' pure functions.
 */
import type { RuleDraft, RuleDraftRequest, RuleDraftSummary } from '../../api-types';
import { diffRules, draftStatus, fourEyesRefusal } from '../../domain/rules';
import { ConflictError, ForbiddenError, NotFoundError } from '../../errors';
import type { AuditChangeRecord } from '../../storage/repositories/audit-events';
import type { RuleDraftRecord } from '../../storage/repositories/rule-drafts';
import { actorName, type Actor } from '../actor';
import type { RulesDeps } from './deps';
import { checkedRules, storeNextVersion } from './document';

/** A draft as GET /rules/drafts/{draft_id} gives it (without the request id). */
export type RuleDraftView = Omit<RuleDraft, 'request_id'>;

function summaryOf(d: RuleDraftRecord, currentVersion: number): RuleDraftSummary {
  return {
    draft_id: d.id,
    base_version: d.baseVersion,
    author: d.author,
    status: draftStatus(d.status, d.baseVersion, currentVersion),
    note: d.note,
    rules_count: d.rules.length,
    created_at: d.createdAt.toISOString(),
    decided_by: d.decidedBy,
    decided_at: d.decidedAt?.toISOString() ?? null,
    reason: d.reason,
    published_version: d.publishedVersion,
  };
}

async function currentOf(deps: RulesDeps, projectId: string) {
  const found = await deps.rules.current(projectId);
  if (!found) throw new NotFoundError('project', projectId);
  return found;
}

async function draftOf(deps: RulesDeps, projectId: string, draftId: string): Promise<RuleDraftRecord> {
  const draft = await deps.ruleDrafts.find(projectId, draftId);
  if (!draft) throw new NotFoundError('rules draft', draftId);
  return draft;
}

/** The audit's record of which draft, whose, and its status before and after. */
const draftChanges = (d: RuleDraftRecord, before: string | null, after: string): AuditChangeRecord[] => [
  { field: 'rules_draft', before: d.id, after: d.id },
  { field: 'rules_draft_author', before: d.author, after: d.author },
  { field: 'rules_draft_status', before, after },
];

/** The draft with its document, its base (version and who stored it) and its diff to the current document. */
export async function getDraft(deps: RulesDeps, projectId: string, draftId: string): Promise<RuleDraftView> {
  const draft = await draftOf(deps, projectId, draftId);
  const current = await currentOf(deps, projectId);
  const base = draft.baseVersion > 0 ? await deps.rules.version(projectId, draft.baseVersion) : undefined;
  return {
    draft: summaryOf(draft, current.version),
    rules: draft.rules,
    base: {
      version: draft.baseVersion,
      author: base?.actor ?? null,
      updated_at: base?.createdAt.toISOString() ?? null,
    },
    current_version: current.version,
    diff: diffRules(current.record?.document.rules ?? [], draft.rules),
  };
}

export async function listDrafts(deps: RulesDeps, projectId: string, limit = 50): Promise<RuleDraftSummary[]> {
  const current = await currentOf(deps, projectId);
  return (await deps.ruleDrafts.newest(projectId, limit)).map((d) => summaryOf(d, current.version));
}

/** Stores a checked document as a pending draft over the current version (else 409), audited in one transaction. */
export async function createDraft(
  deps: RulesDeps,
  projectId: string,
  body: RuleDraftRequest,
  actor: Actor,
  requestId: string | null,
): Promise<RuleDraftView> {
  const { rules } = checkedRules({ rules: body.rules });
  const current = await currentOf(deps, projectId);
  if (body.base_version !== current.version)
    throw new ConflictError(
      `base_version is ${body.base_version} but the rules are at version ${current.version}; read them again (GET /rules)`,
    );
  const draft: RuleDraftRecord = {
    id: deps.random.uuid(),
    projectId,
    baseVersion: body.base_version,
    rules,
    note: body.note ?? null,
    author: actorName(actor),
    createdAt: deps.clock.now(),
    status: 'pending',
    decidedBy: null,
    decidedAt: null,
    reason: null,
    publishedVersion: null,
  };
  await deps.db.transaction(async (trx) => {
    await deps.ruleDrafts.insert(draft, trx);
    await deps.auditEvents.insert(
      {
        id: deps.random.uuid(),
        projectId,
        actor: draft.author,
        action: 'rules.draft_created',
        requestId,
        changes: [
          { field: 'rules_draft', before: draft.id, after: draft.id },
          { field: 'rules_draft_status', before: null, after: 'pending' },
        ],
        createdAt: draft.createdAt,
      },
      trx,
    );
  });
  return getDraft(deps, projectId, draft.id);
}

/** Why a draft cannot be decided now (not pending, or its base moved), or undefined. */
function undecidable(draft: RuleDraftRecord, currentVersion: number): string | undefined {
  if (draft.status !== 'pending') return `The draft is already ${draft.status}`;
  if (draft.baseVersion !== currentVersion)
    return (
      `The draft is based on version ${draft.baseVersion} but the rules are at version ${currentVersion}; ` +
      `propose it again over version ${currentVersion}`
    );
  return undefined;
}

/**
 * An admin other than the author approves: the document stored as the next version over the
 * draft's base (PUT /rules's path), the draft marked published, `rules.published` audited with
 * author and approver, in one transaction. Nothing is written when refused.
 */
export async function publishDraft(
  deps: RulesDeps,
  projectId: string,
  draftId: string,
  actor: Actor,
  requestId: string | null,
): Promise<RuleDraftView> {
  const draft = await draftOf(deps, projectId, draftId);
  const approver = actorName(actor);
  const refused = fourEyesRefusal(draft.author, approver);
  if (refused) throw new ForbiddenError(refused);
  const current = await currentOf(deps, projectId);
  const moved = undecidable(draft, current.version);
  if (moved) throw new ConflictError(moved);
  // Checked again: the fields the server knows may have changed since the draft was stored.
  const { rules } = checkedRules({ rules: draft.rules });
  await storeNextVersion(
    deps,
    projectId,
    rules,
    draft.baseVersion,
    { actor, action: 'rules.published', changes: draftChanges(draft, 'pending', 'published'), requestId },
    async (trx, version) => {
      const decided = await deps.ruleDrafts.decide(
        projectId,
        draft.id,
        {
          status: 'published',
          decidedBy: approver,
          decidedAt: deps.clock.now(),
          reason: null,
          publishedVersion: version,
        },
        trx,
      );
      if (!decided) throw new ConflictError('The draft was decided by another request meanwhile; nothing was written');
    },
  );
  return getDraft(deps, projectId, draftId);
}

/** An admin rejects a pending draft with a reason, audited; nothing is published. */
export async function rejectDraft(
  deps: RulesDeps,
  projectId: string,
  draftId: string,
  reason: string,
  actor: Actor,
  requestId: string | null,
): Promise<RuleDraftView> {
  const draft = await draftOf(deps, projectId, draftId);
  if (draft.status !== 'pending') throw new ConflictError(`The draft is already ${draft.status}`);
  const now = deps.clock.now();
  const approver = actorName(actor);
  await deps.db.transaction(async (trx) => {
    const decided = await deps.ruleDrafts.decide(
      projectId,
      draft.id,
      { status: 'rejected', decidedBy: approver, decidedAt: now, reason, publishedVersion: null },
      trx,
    );
    if (!decided) throw new ConflictError('The draft was decided by another request meanwhile; nothing was written');
    await deps.auditEvents.insert(
      {
        id: deps.random.uuid(),
        projectId,
        actor: approver,
        action: 'rules.draft_rejected',
        requestId,
        changes: draftChanges(draft, 'pending', 'rejected'),
        createdAt: now,
      },
      trx,
    );
  });
  return getDraft(deps, projectId, draftId);
}
