/**
 * What the evaluation use cases are built from (`EvaluationDeps`), what a request tells them
 * (`EvaluationOptions`), and the context `makeEvaluation` builds once and hands to each of them:
 * the deps with the state that must outlive a request (compiled rules, the per-account queue).
 */
import type { Clock, Random } from '../../clock';
import { compileRules, NO_RULES, type CompiledRules } from '../../domain/rules';
import type { IpListName } from '../../domain/signals';
import type { EvaluationStore } from '../../storage/evaluation-store';
import type { Project } from '../../storage/repositories/projects';
import type { ReceiptRepository } from '../../storage/repositories/receipts';
import type { EvaluationMetrics } from '../../telemetry/metrics';
import { NO_TRACING, type Tracing } from '../../telemetry/tracing';
import type { StatsTally } from '../../domain/stats';
import { actorName, type Actor } from '../actor';
import { makeOneAtATime } from '../one-at-a-time';

export interface IpListLookup {
  lookup(ip: string): { list: IpListName }[];
}

export interface EvaluationDeps {
  clock: Clock;
  /** The hot path's reads and its one write (storage/evaluation-store.ts). */
  store: EvaluationStore;
  receipts: ReceiptRepository;
  ipLists: IpListLookup;
  /** Each evaluation's decision, signals and scores, recorded after it is stored (GET /metrics). */
  metrics?: EvaluationMetrics;
  /** The overview's counts (GET /stats), added to in memory once stored and flushed later (usecases/stats-flusher.ts). */
  tally: Pick<StatsTally, 'add'>;
  /** Spans for the stages: gather, evaluate, persist. */
  tracing?: Pick<Tracing, 'span'>;
  /** Ids of the events an evaluation queues (`evaluation.rule_matched`, list events). */
  random: Random;
  /** Called once a transaction that queued a webhook has committed (webhooks/wake.ts). */
  webhooksQueued(): void;
}

export interface EvaluationOptions {
  requestId: string;
  accountsLinked: boolean;
  /** Who asked (the request's API key): the actor of the list events its lists cause. */
  actor?: Actor;
}

/** Who asked, as list events name an actor: the request's API key; `cli` without one (the in-process demo, which gives no lists). */
export const actorOf = (options: EvaluationOptions) => (options.actor ? actorName(options.actor) : 'cli');

/** The deps and what one `makeEvaluation` keeps across requests. */
export interface EvaluationContext extends EvaluationDeps {
  span: Tracing['span'];
  /** The IP lists an address is on. */
  listsOf(ip: string): Set<IpListName>;
  /** The project's rules, compiled once per version. */
  rulesOf(project: Project): CompiledRules;
  /** Authenticates of one account, one after the other (see one-at-a-time.ts). */
  byAccount: ReturnType<typeof makeOneAtATime>;
}

export function evaluationContext(deps: EvaluationDeps): EvaluationContext {
  const { span } = deps.tracing ?? NO_TRACING;
  // Each project's rules compiled once per version (the document comes with the cached project: no read).
  const compiled = new Map<string, CompiledRules>();
  function rulesOf(project: Project): CompiledRules {
    const current = project.rules;
    if (!current) return NO_RULES;
    const hit = compiled.get(project.id);
    if (hit?.version === current.version) return hit;
    const rules = compileRules(current.document, current.version);
    compiled.set(project.id, rules);
    return rules;
  }
  return {
    ...deps,
    span,
    listsOf: (ip) => new Set(deps.ipLists.lookup(ip).map((m) => m.list)),
    rulesOf,
    byAccount: makeOneAtATime(),
  };
}
