/**
 * The steps the evaluation use cases share: the gather helpers (the session, still live; the
 * account input applied; the link searches), then evaluate → commit, then the response.
 */
import type { AccountRead, Evaluation, LinkedAccount, ListName } from '../../api-types';
import {
  applyAccountInput,
  describeLinks,
  evaluate,
  LINK_CAP,
  type AccountRecord,
  type CurrentSession,
  type EmailHistoryFacts,
  type EmailQuery,
  type EvaluationFacts,
  type EvaluationOutcome,
  type LinkSearch,
} from '../../domain/evaluation';
import { rulesView } from '../../domain/evaluation/rules';
import { evaluationWrite, queuesWebhooks, roundedScores, type Made } from '../../domain/evaluation/write';
import { DAY_MS } from '../../domain/numbers';
import { evaluationMetrics } from '../../domain/stats';
import { withTestOutcome } from '../../domain/test-mode';
import { BadRequestError, SessionNotFoundError } from '../../errors';
import type { Project } from '../../storage/repositories/projects';
import type { EvaluationContext, EvaluationOptions } from './deps';

/** A session can be evaluated for this long after it starts (openapi.yaml: sessions can be evaluated for 24 hours). */
export const EVALUATION_WINDOW_MS = DAY_MS;

/** The session (with the account's newest sessions when `history` asks), or a 404. */
export async function load(
  ctx: EvaluationContext,
  project: Project,
  sessionId: string,
  history?: { accountId: string; limit: number },
) {
  const found = await ctx.store.session(project.id, sessionId, history);
  if (!found) throw new SessionNotFoundError();
  return found;
}

/** A 400 once the session is past its evaluation window. */
export function live(session: CurrentSession, now: Date): void {
  if (now.getTime() - session.startTime.getTime() > EVALUATION_WINDOW_MS) {
    throw new BadRequestError('Session expired; sessions can be evaluated for 24 hours after they start');
  }
}

/** The stored account with the input applied (identifiers normalised), or a 400 naming the rule. */
export function applyInput(
  ctx: EvaluationContext,
  project: Project,
  existing: AccountRecord | undefined,
  input: Omit<AccountRead, 'id'>,
  id: string,
  field = 'account.',
): AccountRecord {
  const context = { projectId: project.id, groupsEnabled: project.groupsEnabled, now: ctx.clock.now() };
  const applied = applyAccountInput(context, existing, input, id, field);
  if ('refused' in applied) throw new BadRequestError(applied.refused);
  return applied.record;
}

/** The history without the stored account itself, which the domain's count includes once it is stored at the domain. */
export function withoutSelf(history: EmailHistoryFacts, stored: AccountRecord | undefined, query?: EmailQuery) {
  if (stored?.emailDomain !== query?.domain) return history;
  return { ...history, accountsFromDomain: Math.max(0, history.accountsFromDomain - 1) };
}

/** The links' searches, then (to describe them or keep them within a group) the found accounts. */
export async function gatherLinks(ctx: EvaluationContext, project: Project, search: LinkSearch, describe: boolean) {
  const found = await ctx.store.linksDescribed(project.id, search, {
    describe,
    groupsEnabled: project.groupsEnabled,
    floor: project.linkScoreFloor,
  });
  return { search, identifierMatches: found.identifiers, networkMatches: found.networks, linked: found.linked };
}

/**
 * Evaluates the facts (pure, test mode applied) and commits the evaluation's write in one
 * transaction; `written` is false (nothing written) when the account changed since it was read.
 */
export async function evaluateAndCommit(
  ctx: EvaluationContext,
  project: Project,
  facts: EvaluationFacts,
  listInput: readonly ListName[],
  made: Made,
  held?: { exclusively: boolean },
): Promise<{ outcome: EvaluationOutcome; written: boolean }> {
  const outcome = ctx.span('evaluation.evaluate', () => withTestOutcome(project, facts, evaluate(facts)));
  const written = await ctx.span('evaluation.persist', () =>
    commit(ctx, project, facts, outcome, listInput, made, held),
  );
  return { outcome, written };
}

async function commit(
  ctx: EvaluationContext,
  project: Project,
  facts: EvaluationFacts,
  outcome: EvaluationOutcome,
  listInput: readonly ListName[],
  made: Made,
  held?: { exclusively: boolean },
): Promise<boolean> {
  const now = ctx.clock.now();
  const write = evaluationWrite({ project, facts, outcome, listInput, made, at: now, newId: () => ctx.random.uuid() });
  const written = await ctx.store.commit(write, held);
  // After the commit, never inside the transaction: a dispatcher woken earlier would not see the row yet.
  if (written && queuesWebhooks(write)) ctx.webhooksQueued();
  // The overview's counts: in-memory increments like the metrics', on the evaluation's day; no statement.
  if (written) {
    const { decision, signals } = outcome;
    ctx.tally.add(
      project.id,
      now,
      evaluationMetrics(decision, signals.risk_signal_scores, signals.risk_signals.spoofed_ip),
    );
  }
  return written;
}

/** The outcome into the metrics, once stored. */
export function recordMetrics(
  ctx: EvaluationContext,
  kind: 'authenticate' | 'unauthenticated',
  outcome: EvaluationOutcome,
): void {
  ctx.metrics?.evaluated(kind, { decision: outcome.decision, scores: outcome.scores, ...outcome.signals });
}

/**
 * The response, from the facts and the outcome (nothing read again): the evaluation, then what
 * the operation adds (`extra`), then the linked accounts when the request asked for them.
 */
export function respond<Extra extends object>(
  project: Project,
  facts: EvaluationFacts,
  outcome: EvaluationOutcome,
  options: EvaluationOptions,
  extra: Extra,
): Evaluation & Extra & { linked_accounts?: LinkedAccount[] } {
  return {
    project_id: project.id,
    session_id: facts.session.id,
    request_id: options.requestId,
    decision: outcome.decision,
    ...roundedScores(outcome.scores),
    accounts_linked: Math.min(outcome.links.length, LINK_CAP),
    lists: outcome.lists,
    session: { ...facts.session.facts, ...outcome.signals },
    rules: rulesView(outcome.rules),
    ...extra,
    ...(options.accountsLinked ? { linked_accounts: describeLinks(outcome.links, facts.linked) } : {}),
  };
}
