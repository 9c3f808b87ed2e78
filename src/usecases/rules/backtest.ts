/**
 * POST /rules/test: a draft replayed over the range's stored evaluations (domain/evaluation/
 * backtest.ts does the replaying, purely), against their accounts' current labels; nothing is
 * stored.
 *
 * A replay runs on the event loop every other request of the process needs, so it is bounded
 * (docs/rules.md, "What a backtest costs"): it yields to the loop after every chunk of work,
 * stops at a work budget (evaluations × the draft's comparisons) and at a deadline, stops when
 * its client leaves, and takes one of a few places (slots.ts) or is refused.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { LabelValue, RulesPreview, RulesPreviewRequest, RulesTestRequest, RulesTestResult } from '../../api-types';
import { BACKTEST_DEFAULTS } from '../../config';
import {
  backtest,
  readFromAccountRow,
  replayed,
  replaysField,
  type ReplayedEvaluation,
} from '../../domain/evaluation/backtest';
import type { AccountRecord } from '../../domain/evaluation';
import { DAY_MS } from '../../domain/numbers';
import { compileRules, type CompiledRules } from '../../domain/rules';
import { BadRequestError } from '../../errors';
import type { KeptCursor, ReceiptRepository } from '../../storage/repositories/receipts';
import { EVALUATION_WINDOW_MS } from '../evaluation';
import type { BacktestSettings, RulesDeps } from './deps';
import { checkedRules } from './document';
import { makeBacktestSlots, type BacktestSlots, type RunningBacktest } from './slots';

/** A backtest replays at most this many evaluations (the first in session start order), of a range of at most 31 days. */
export const BACKTEST_LIMIT = 10_000;
export const BACKTEST_MAX_RANGE_MS = 31 * DAY_MS;
/** Evaluations (and labels) read per statement. */
const BACKTEST_BATCH = 500;
/**
 * Comparisons between two yields to the event loop: a few milliseconds of replay, so that the
 * other requests of the process wait at most that long for a turn.
 */
export const BACKTEST_CHUNK_WORK = 5_000;

type TruncatedBy = RulesTestResult['truncated_by'];

/** Thrown when the client left: the replay stopped, and there is no one to answer. */
export class BacktestAbandoned extends Error {
  constructor(readonly replayed: number) {
    super(`backtest abandoned by its client after ${replayed} evaluations`);
  }
}

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

/** How one backtest is paced and bounded. */
interface Run {
  /** The most evaluations it replays, and the bound that sets it. */
  limit: number;
  limitBy: Exclude<TruncatedBy, 'time_budget' | null>;
  /** Evaluations replayed between two yields. */
  chunk: number;
  deadline: Date;
  now: () => Date;
  signal: AbortSignal | undefined;
  progress: RunningBacktest;
}

/**
 * The most evaluations a draft of `comparisons` may replay: the work budget's share, at most
 * BACKTEST_LIMIT. A draft whose comparisons alone exceed the budget could not replay one: 400.
 */
function evaluationLimit(comparisons: number, settings: BacktestSettings): Pick<Run, 'limit' | 'limitBy' | 'chunk'> {
  const cost = Math.max(1, comparisons);
  const byWork = Math.floor(settings.workBudget / cost);
  if (byWork < 1)
    throw new BadRequestError(
      `request/body/rules holds ${comparisons} comparisons; a backtest makes at most ${settings.workBudget} ` +
        '(BACKTEST_WORK_BUDGET) in all, so the draft must hold fewer: remove rules or conditions',
    );
  const chunk = Math.max(1, Math.floor(settings.chunkWork / cost));
  return byWork < BACKTEST_LIMIT
    ? { limit: byWork, limitBy: 'work_budget', chunk }
    : { limit: BACKTEST_LIMIT, limitBy: 'evaluation_limit', chunk };
}

/** The settings given, the rest defaulted. */
export function settingsOf(given: Partial<BacktestSettings> = {}): BacktestSettings {
  return { ...BACKTEST_DEFAULTS, chunkWork: BACKTEST_CHUNK_WORK, ...given };
}

/**
 * The draft replayed over the range's stored evaluations (at most the run's limit, oldest
 * session first, read BACKTEST_BATCH at a time), against their accounts' current labels.
 * `signal` aborts when the client leaves.
 */
async function test(
  deps: RulesDeps,
  settings: BacktestSettings,
  slots: BacktestSlots,
  projectId: string,
  body: RulesTestRequest,
  requestId: string,
  signal?: AbortSignal,
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
  const fields = fieldsOf(body.rules);
  const bounds = evaluationLimit(fields.length, settings);
  if (signal?.aborted) throw new BacktestAbandoned(0);
  const now = () => deps.clock.now();
  const deadline = new Date(now().getTime() + settings.timeBudgetMs);
  const progress = slots.take(projectId, requestId, now(), deadline);
  try {
    const run: Run = { ...bounds, deadline, now, signal, progress };
    const { replays, accountIds, truncatedBy } = await replayRange(deps, projectId, range, body, draft, fields, run);
    const labels = await currentLabels(deps, projectId, [...accountIds]);
    return {
      request_id: requestId,
      truncated: truncatedBy !== null,
      truncated_by: truncatedBy,
      ...backtest(replays, draft, labels, body.max_examples ?? 10),
    };
  } catch (err) {
    if (err instanceof BacktestAbandoned)
      deps.logger.info({ projectId, requestId, replayed: err.replayed }, 'backtest abandoned: its client left');
    throw err;
  } finally {
    slots.release(progress);
  }
}

/** After a chunk: a turn of the event loop for the other requests, then whether to go on. */
async function paced(run: Run, replayed: number): Promise<'go' | 'time_budget'> {
  run.progress.replayed = replayed;
  if (replayed % run.chunk !== 0) return 'go';
  await nextTurn();
  if (run.signal?.aborted) throw new BacktestAbandoned(replayed);
  return run.now() >= run.deadline ? 'time_budget' : 'go';
}

/** The draft replayed over the range's evaluations, read a page at a time, and the accounts they were of. */
async function replayRange(
  deps: RulesDeps,
  projectId: string,
  range: Parameters<ReceiptRepository['page']>[1],
  body: RulesTestRequest,
  draft: CompiledRules,
  fields: { path: string; name: string }[],
  run: Run,
): Promise<{ replays: ReplayedEvaluation[]; accountIds: Set<string>; truncatedBy: TruncatedBy }> {
  const readsRows = fields.some((f) => readFromAccountRow(f.name));
  // Each field checked once per evaluation, at its first path, however many comparisons name it.
  const first = new Map<string, { path: string; name: string }>();
  for (const f of fields) if (!first.has(f.name)) first.set(f.name, f);
  const named = [...first.values()];
  const replays: ReplayedEvaluation[] = [];
  const accountIds = new Set<string>();
  let after: KeptCursor | undefined;
  let truncatedBy: TruncatedBy = null;
  // Past the deadline, one more evaluation is looked for: truncated only when the range held more.
  let outOfTime = false;
  while (truncatedBy === null) {
    // One more than the limit leaves, so that a range holding more is known to be truncated.
    const size = outOfTime ? 1 : Math.min(BACKTEST_BATCH, run.limit - replays.length + 1);
    const page = await deps.receipts.page(projectId, range, size, after);
    // The address and metadata the draft names: from the accounts' rows (one read per page).
    const rows = new Map<string, AccountRecord>();
    if (readsRows) {
      const ids = [...new Set(page.flatMap((e) => e.kept.inputs.accountId ?? []))];
      for (const r of await deps.accounts.findMany(projectId, ids)) rows.set(r.id, r);
    }
    for (const e of page) {
      if (replays.length === run.limit || outOfTime) {
        truncatedBy = outOfTime ? 'time_budget' : run.limitBy;
        break;
      }
      const unkept = named.find((f) => !replaysField(e.kept, f.name));
      if (unkept) throw notReplayable(unkept, e.kept.requestId);
      const id = e.kept.inputs.accountId;
      replays.push(replayed(e, draft, body.decision_threshold, id !== null ? rows.get(id) : undefined));
      if (id !== null) accountIds.add(id);
      outOfTime = (await paced(run, replays.length)) === 'time_budget';
    }
    if (page.length < size) break;
    after = page.at(-1)!.cursor;
  }
  return { replays, accountIds, truncatedBy };
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

/** A backtest over this process's places and settings (makeBacktest's `test`). */
type RunBacktest = (
  projectId: string,
  body: RulesTestRequest,
  requestId: string,
  signal?: AbortSignal,
) => Promise<RulesTestResult>;

/** How far back a preview counts a draft's matches. */
export const PREVIEW_RANGE_MS = 7 * DAY_MS;

/**
 * POST /rules/preview: each rule's matches over the last PREVIEW_RANGE_MS, which is the backtest
 * of that range (the same replay, bounds and places) answered as its counts alone.
 */
async function preview(
  deps: RulesDeps,
  run: RunBacktest,
  projectId: string,
  body: RulesPreviewRequest,
  requestId: string,
  signal?: AbortSignal,
): Promise<RulesPreview> {
  // Up to and including this instant (the range's end is exclusive): an evaluation made in the
  // same millisecond as the preview counts.
  const to = new Date(deps.clock.now().getTime() + 1);
  const from = new Date(to.getTime() - PREVIEW_RANGE_MS);
  const range = { from: from.toISOString(), to: to.toISOString() };
  const result = await run(projectId, { rules: body.rules, ...range, max_examples: 0 }, requestId, signal);
  return {
    request_id: requestId,
    ...range,
    evaluations: result.evaluations,
    truncated: result.truncated,
    truncated_by: result.truncated_by,
    rules: result.rules,
  };
}

/** The backtest use case over one set of deps, with this process's places (at most so many at once). */
export function makeBacktest(deps: RulesDeps) {
  const settings = settingsOf(deps.backtest);
  const slots = makeBacktestSlots({ perProject: settings.concurrencyPerProject, total: settings.concurrency });
  const run: RunBacktest = (projectId, body, requestId, signal) =>
    test(deps, settings, slots, projectId, body, requestId, signal);
  return {
    test: run,
    preview: (projectId: string, body: RulesPreviewRequest, requestId: string, signal?: AbortSignal) =>
      preview(deps, run, projectId, body, requestId, signal),
    running: () => slots.running(),
  };
}
