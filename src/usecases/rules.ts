/**
 * Rules as code (docs/rules.md): a project's rules document, read and replaced. A new
 * document is checked (domain/rules: every error names the path and the rule), stored as the
 * next version with its audit event in one transaction, and the project is forgotten by this
 * process's key cache, so that the next evaluation here applies it (other processes: within
 * the cache's TTL, as other settings).
 */
import type { Rules, RulesDocument } from '../api-types';
import type { Clock, Random } from '../clock';
import { compileRules, describeError, validateRules } from '../domain/rules';
import { BadRequestError, ConflictError, NotFoundError } from '../errors';
import type { Db } from '../storage/db';
import type { AuditEventRepository } from '../storage/repositories/audit-events';
import type { RulesRepository } from '../storage/repositories/rules';
import { actorName, type Actor } from './actor';

export interface RulesDeps {
  db: Db;
  clock: Clock;
  random: Random;
  rules: RulesRepository;
  auditEvents: AuditEventRepository;
  /** Drops the project from this process's key cache (its cached project carries the rules). */
  forgetProject(projectId: string): void;
}

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

export function makeRulesUseCases(deps: RulesDeps) {
  const { db, clock, random, rules } = deps;

  async function current(projectId: string): Promise<RulesView> {
    const found = await rules.current(projectId);
    if (!found) throw new NotFoundError('project', projectId);
    return {
      version: found.version,
      rules: found.record?.document.rules ?? [],
      updated_at: found.record?.createdAt.toISOString() ?? null,
    };
  }

  return {
    current,

    /**
     * Replaces the document: checked, then stored as the next version over the version read
     * (and over `expected_version` when given; else 409), audited in the same transaction.
     */
    async replace(projectId: string, input: unknown, actor: Actor, requestId: string | null = null) {
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
      await db.transaction(async (trx) => {
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
      deps.forgetProject(projectId);
      return { version: found.version + 1, rules: document.rules, updated_at: now.toISOString() } satisfies RulesView;
    },
  };
}

export type RulesUseCases = ReturnType<typeof makeRulesUseCases>;
