/**
 * A project's rules document, read and replaced (docs/rules.md). A new document is checked
 * (domain/rules: every error names the path and the rule), stored as the next version with its
 * audit event in one transaction that also announces the change, so that every process's key
 * cache drops the project and its next evaluation applies the document
 * (usecases/projects/change.ts).
 */
import type { Rules, RulesDocument } from '../../api-types';
import { compileRules, describeError, validateRules } from '../../domain/rules';
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from '../../errors';
import type { Db } from '../../storage/db';
import type { AuditChangeRecord } from '../../storage/repositories/audit-events';
import { actorName, type Actor } from '../actor';
import type { RulesDeps } from './deps';

/** The document as GET /rules gives it (without the request id). */
export type RulesView = Omit<Rules, 'request_id'>;

/** The checked document, or a 400 naming the first error's path and rule (and how many more there are). */
export function checkedRules(input: unknown): RulesDocument {
  const checked = validateRules(input);
  if (checked.ok) return checked.document;
  const [first, ...more] = checked.errors;
  throw new BadRequestError(
    describeError(first!) + (more.length ? ` (and ${more.length} more error${more.length > 1 ? 's' : ''})` : ''),
  );
}

export async function current({ rules }: RulesDeps, projectId: string): Promise<RulesView> {
  const found = await rules.current(projectId);
  if (!found) throw new NotFoundError('project', projectId);
  return {
    version: found.version,
    rules: found.record?.document.rules ?? [],
    updated_at: found.record?.createdAt.toISOString() ?? null,
  };
}

/** The audit event of a new version, written in its transaction: its action and changes, and who made it. */
export interface VersionAudit {
  actor: Actor;
  action: 'rules.updated' | 'rules.published';
  /** Recorded before `rules_version`'s change. */
  changes?: AuditChangeRecord[];
  requestId: string | null;
}

/**
 * Stores a checked document as the version after `fromVersion` (else 409: another version came
 * first), with its audit event, in one transaction that announces the change; `alsoInTrx` adds
 * writes of the caller's to it (a draft's decision). The one way a version is stored: PUT /rules
 * and a draft's publication both come here.
 */
export async function storeNextVersion(
  deps: RulesDeps,
  projectId: string,
  rules: RulesDocument['rules'],
  fromVersion: number,
  audit: VersionAudit,
  alsoInTrx: (trx: Db, version: number) => Promise<void> = async () => {},
): Promise<RulesView> {
  const document: RulesDocument = { rules };
  // Compiled once here too: a document that passed the checks but cannot be compiled is a bug, found now.
  compileRules(document, 0);
  const now = deps.clock.now();
  const actor = actorName(audit.actor);
  await deps.changeProject(projectId, async (trx) => {
    const stored = await deps.rules.insertNext(projectId, fromVersion, document, actor, now, trx);
    if (!stored) throw new ConflictError("The project's rules changed during this request; retry");
    await alsoInTrx(trx, fromVersion + 1);
    await deps.auditEvents.insert(
      {
        id: deps.random.uuid(),
        projectId,
        actor,
        action: audit.action,
        requestId: audit.requestId,
        changes: [...(audit.changes ?? []), { field: 'rules_version', before: fromVersion, after: fromVersion + 1 }],
        createdAt: now,
      },
      trx,
    );
  });
  return { version: fromVersion + 1, rules, updated_at: now.toISOString() };
}

/**
 * Replaces the document: checked, then stored as the next version over the version read
 * (and over `expected_version` when given; else 409), audited in the same transaction. For API
 * keys and the CLI: a console operator publishes through drafts (four-eyes), so a console
 * session is refused here (docs/rules.md, "Drafts and four-eyes").
 */
export async function replace(
  deps: RulesDeps,
  projectId: string,
  input: unknown,
  actor: Actor,
  requestId: string | null = null,
) {
  if (typeof actor === 'object' && 'operatorId' in actor)
    throw new ForbiddenError(
      'Console operators publish rules through drafts (four-eyes): propose the document with POST /rules/drafts, ' +
        'then another admin publishes it with POST /rules/drafts/{draft_id}/publish; PUT /rules is for API keys',
    );
  const document = checkedRules(input);
  const found = await deps.rules.current(projectId);
  if (!found) throw new NotFoundError('project', projectId);
  const expected = document.expected_version;
  if (expected !== undefined && expected !== found.version)
    throw new ConflictError(
      `expected_version is ${expected} but the rules are at version ${found.version}; read them again (GET /rules)`,
    );
  return storeNextVersion(deps, projectId, document.rules, found.version, {
    actor,
    action: 'rules.updated',
    requestId,
  });
}
