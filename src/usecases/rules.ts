/**
 * Rules as code (docs/rules.md): a project's rules document, read and replaced. A new
 * document is checked (domain/rules: every error names the path and the rule), stored as the
 * next version with its audit event in one transaction that also announces the change, so that
 * every process's key cache drops the project and its next evaluation applies the document
 * (usecases/projects/change.ts).
 */
import type { LabelValue, Rules, RulesDocument, RulesTestRequest, RulesTestResult } from '../api-types';
import type { Clock, Random } from '../clock';
import {
  backtest,
  readFromAccountRow,
  replayed,
  replaysField,
  type ReplayedEvaluation,
} from '../domain/evaluation/backtest';
import type { AccountRecord } from '../domain/evaluation';
import { DAY_MS } from '../domain/numbers';
import { compileRules, describeError, validateRules, type CompiledRules } from '../domain/rules';
import { BadRequestError, ConflictError, NotFoundError } from '../errors';
import type { Db } from '../storage/db';
import type { AccountRepository } from '../storage/repositories/accounts';
import type { AuditEventRepository } from '../storage/repositories/audit-events';
import type { KeptCursor, ReceiptRepository } from '../storage/repositories/receipts';
import type { RulesRepository } from '../storage/repositories/rules';
import { actorName, type Actor } from './actor';
import { EVALUATION_WINDOW_MS } from './evaluation';
import { withDeps } from '../with-deps';

export interface RulesDeps {
  db: Db;
  clock: Clock;
  random: Random;
  rules: RulesRepository;
  auditEvents: AuditEventRepository;
  receipts: ReceiptRepository;
  accounts: Pick<AccountRepository, 'findMany'>;
  /**
   * Runs a change to the project's rules in a transaction that announces it: every process's key
   * cache drops the project, whose cached copy carries the rules (usecases/projects/change.ts).
   */
  changeProject<T>(projectId: string, work: (trx: Db) => Promise<T>): Promise<T>;
}

/** A backtest replays at most this many evaluations (the first in session start order), of a range of at most 31 days. */
export const BACKTEST_LIMIT = 10_000;
export const BACKTEST_MAX_RANGE_MS = 31 * DAY_MS;
/** Evaluations (and labels) read per statement. */
const BACKTEST_BATCH = 500;

/** The condition fields of a document, each with its path in the request body, in document order. */
function fieldsOf(node: unknown, path = 'rules', out: { path: string; name: string }[] = []) {
  if (Array.isArray(node)) node.forEach((item, i) => fieldsOf(item, `${path}/${i}`, out));
  else if (node !== null && typeof node === 'object')
    for (const [key, value] of Object.entries(node)) {
      if (key === 'field' && typeof value === 'string') out.push({ path: `${path}/field`, name: value });
      else fieldsOf(value, `${path}/${key}`, out);
    }
  return out;
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

async function current({ rules }: RulesDeps, projectId: string): Promise<RulesView> {
  const found = await rules.current(projectId);
  if (!found) throw new NotFoundError('project', projectId);
  return {
    version: found.version,
    rules: found.record?.document.rules ?? [],
    updated_at: found.record?.createdAt.toISOString() ?? null,
  };
}

/**
 * POST /rules/test: the draft replayed over the range's stored evaluations (at most
 * BACKTEST_LIMIT, oldest session first, read BACKTEST_BATCH at a time), against their
 * accounts' current labels.
 */
async function test(
  deps: RulesDeps,
  projectId: string,
  body: RulesTestRequest,
  requestId: string,
): Promise<RulesTestResult> {
  const document = checkedRules({ rules: body.rules });
  const draft = compileRules(document, 0);
  const from = new Date(body.from);
  const to = new Date(body.to);
  // A session is evaluated within EVALUATION_WINDOW_MS of its start: those evaluated in the range started in this one.
  const range = { from, to, started: { from: new Date(from.getTime() - EVALUATION_WINDOW_MS), to } };
  const span = to.getTime() - from.getTime();
  if (span <= 0) throw new BadRequestError('request/body/from must be before request/body/to');
  if (span > BACKTEST_MAX_RANGE_MS)
    throw new BadRequestError('request/body/to must be at most 31 days after request/body/from');
  const { replays, accountIds, truncated } = await replayRange(deps, projectId, range, body, draft);
  const labels = await currentLabels(deps, projectId, [...accountIds]);
  return {
    request_id: requestId,
    truncated,
    ...backtest(replays, draft, labels, body.max_examples ?? 10),
  };
}

/** The draft replayed over the range's evaluations, read a page at a time, and the accounts they were of. */
async function replayRange(
  deps: RulesDeps,
  projectId: string,
  range: Parameters<ReceiptRepository['page']>[1],
  body: RulesTestRequest,
  draft: CompiledRules,
): Promise<{ replays: ReplayedEvaluation[]; accountIds: Set<string>; truncated: boolean }> {
  const fields = fieldsOf(body.rules);
  const readsRows = fields.some((f) => readFromAccountRow(f.name));
  const replays: ReplayedEvaluation[] = [];
  const accountIds = new Set<string>();
  let after: KeptCursor | undefined;
  let truncated = false;
  for (;;) {
    const page = await deps.receipts.page(projectId, range, BACKTEST_BATCH, after);
    // The address and metadata the draft names: from the accounts' rows (one read per page).
    const rows = new Map<string, AccountRecord>();
    if (readsRows) {
      const ids = [...new Set(page.flatMap((e) => e.kept.inputs.accountId ?? []))];
      for (const r of await deps.accounts.findMany(projectId, ids)) rows.set(r.id, r);
    }
    for (const e of page) {
      if (replays.length === BACKTEST_LIMIT) {
        truncated = true;
        break;
      }
      const unkept = fields.find((f) => !replaysField(e.kept, f.name));
      if (unkept) throw notReplayable(unkept, e.kept.requestId);
      const id = e.kept.inputs.accountId;
      replays.push(replayed(e, draft, body.decision_threshold, id !== null ? rows.get(id) : undefined));
      if (e.kept.inputs.accountId !== null) accountIds.add(e.kept.inputs.accountId);
    }
    if (truncated || page.length < BACKTEST_BATCH) break;
    after = page.at(-1)!.cursor;
  }
  return { replays, accountIds, truncated };
}

/** The refusal of a draft naming a field that an evaluation of the range was stored without. */
function notReplayable(field: { path: string; name: string }, requestId: string): BadRequestError {
  return new BadRequestError(
    `request/body/${field.path}: ${field.name} is not kept with evaluation ${requestId} ` +
      '(recorded before evaluations kept it), so a backtest cannot replay it; choose a later range',
  );
}

/** The accounts' current labels, read BACKTEST_BATCH accounts at a time. */
async function currentLabels(deps: RulesDeps, projectId: string, ids: string[]): Promise<Map<string, LabelValue>> {
  const labels = new Map<string, LabelValue>();
  for (let i = 0; i < ids.length; i += BACKTEST_BATCH)
    for (const [id, label] of await deps.receipts.currentLabels(projectId, ids.slice(i, i + BACKTEST_BATCH)))
      labels.set(id, label);
  return labels;
}

/**
 * Replaces the document: checked, then stored as the next version over the version read
 * (and over `expected_version` when given; else 409), audited in the same transaction.
 */
async function replace(
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

export function makeRulesUseCases(deps: RulesDeps) {
  const given = withDeps(deps);
  return { current: given(current), test: given(test), replace: given(replace) };
}

export type RulesUseCases = ReturnType<typeof makeRulesUseCases>;
