/**
 * A project's rules document, read and replaced (docs/rules.md). A new document is checked
 * (domain/rules: every error names the path and the rule), stored as the next version with its
 * audit event in one transaction that also announces the change, so that every process's key
 * cache drops the project and its next evaluation applies the document
 * (usecases/projects/change.ts).
 */
import type { Rules, RulesDocument } from '../../api-types';
import { compileRules, describeError, validateRules } from '../../domain/rules';
import { BadRequestError, ConflictError, NotFoundError } from '../../errors';
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

/**
 * Replaces the document: checked, then stored as the next version over the version read
 * (and over `expected_version` when given; else 409), audited in the same transaction.
 */
export async function replace(
  deps: RulesDeps,
  projectId: string,
  input: unknown,
  actor: Actor,
  requestId: string | null = null,
) {
  const { clock, random, rules } = deps;
  const document = checkedRules(input);
  // Compiled once here too: a document that passed the checks but cannot be compiled is a bug, found now.
  compileRules(document, 0);
  const found = await rules.current(projectId);
  if (!found) throw new NotFoundError('project', projectId);
  const expected = document.expected_version;
  if (expected !== undefined && expected !== found.version)
    throw new ConflictError(
      `expected_version is ${expected} but the rules are at version ${found.version}; read them again (GET /rules)`,
    );
  const now = clock.now();
  await deps.changeProject(projectId, async (trx) => {
    const stored = await rules.insertNext(
      projectId,
      found.version,
      { rules: document.rules },
      actorName(actor),
      now,
      trx,
    );
    if (!stored) throw new ConflictError("The project's rules changed during this request; retry");
    await deps.auditEvents.insert(
      {
        id: random.uuid(),
        projectId,
        actor: actorName(actor),
        action: 'rules.updated',
        requestId,
        changes: [{ field: 'rules_version', before: found.version, after: found.version + 1 }],
        createdAt: now,
      },
      trx,
    );
  });
  return { version: found.version + 1, rules: document.rules, updated_at: now.toISOString() } satisfies RulesView;
}
