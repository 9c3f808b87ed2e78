/**
 * The overview's counts (getStats): which counts an evaluation adds to (its decision, the
 * signals it raised, on its UTC day), the range a request asks for, and the answer built from
 * the kept rows. Pure: today comes in as `now`.
 */
import type { Decision, EvaluatedRiskSignalScores, EvaluationStats, RiskSignalName } from '../api-types';
import { DAY_MS } from './numbers';
import { ON_THRESHOLD } from './signals';
import { byCodeUnits } from './order';

/** The longest range, in days (both ends included). */
export const MAX_STATS_DAYS = 90;
/** The default range: today and the 13 days before it. */
export const DEFAULT_STATS_DAYS = 14;

/** A kept count: `decision:<Decision>` or `signal:<RiskSignalName>` on a UTC day. */
export interface StatsRow {
  day: string;
  metric: string;
  count: number;
}

/** The UTC day of a time, `YYYY-MM-DD`. */
export const dayOf = (at: Date): string => at.toISOString().slice(0, 10);

/** The metrics an evaluation adds one to: its decision and each signal it raised (as risk_signals reports them). */
export function evaluationMetrics(decision: Decision, scores: EvaluatedRiskSignalScores, spoofedIp: boolean): string[] {
  const raised = Object.entries(scores)
    .filter(([, score]) => typeof score === 'number' && score >= ON_THRESHOLD)
    .map(([name]) => name);
  if (spoofedIp) raised.push('spoofed_ip');
  return [`decision:${decision}`, ...raised.sort().map((name) => `signal:${name}`)];
}

/** A `YYYY-MM-DD` that is a real day, as midnight UTC; undefined otherwise. */
function parseDay(s: string): number | undefined {
  const t = Date.parse(`${s}T00:00:00.000Z`);
  return Number.isNaN(t) || dayOf(new Date(t)) !== s ? undefined : t;
}

/** The days asked for, or the refusal naming the field and the rule. */
export function statsRange(
  from: string | undefined,
  to: string | undefined,
  now: Date,
): { from: string; to: string } | { refused: string } {
  const end = to === undefined ? parseDay(dayOf(now))! : parseDay(to);
  if (end === undefined) return { refused: 'to must be a day (YYYY-MM-DD)' };
  const start = from === undefined ? end - (DEFAULT_STATS_DAYS - 1) * DAY_MS : parseDay(from);
  if (start === undefined) return { refused: 'from must be a day (YYYY-MM-DD)' };
  if (start > end) return { refused: 'from must not be after to' };
  if ((end - start) / DAY_MS + 1 > MAX_STATS_DAYS)
    return { refused: `from to to must be at most ${MAX_STATS_DAYS} days` };
  return { from: dayOf(new Date(start)), to: dayOf(new Date(end)) };
}

/** The answer: every day of the range (zeros included) and the raised signals, most first, then by name. */
export function evaluationStats(
  rows: readonly StatsRow[],
  range: { from: string; to: string },
): Omit<EvaluationStats, 'request_id'> {
  const days = new Map<string, { day: string; Real: number; Fake: number }>();
  for (let t = Date.parse(`${range.from}T00:00:00.000Z`); dayOf(new Date(t)) <= range.to; t += DAY_MS) {
    const day = dayOf(new Date(t));
    days.set(day, { day, Real: 0, Fake: 0 });
  }
  const signals = new Map<string, number>();
  for (const { day, metric, count } of rows) {
    const [kind, name] = metric.split(':') as [string, string];
    const entry = days.get(day);
    if (kind === 'decision' && entry && (name === 'Real' || name === 'Fake')) entry[name] += count;
    else if (kind === 'signal') signals.set(name, (signals.get(name) ?? 0) + count);
  }
  return {
    from: range.from,
    to: range.to,
    days: [...days.values()],
    signals: [...signals]
      .sort(([a, x], [b, y]) => y - x || byCodeUnits(a, b))
      .map(([signal, count]) => ({ signal: signal as RiskSignalName, count })),
  };
}

/** What a process adds to one kept count since its last flush. */
export interface StatsDelta extends StatsRow {
  projectId: string;
}

/**
 * The counts this process's evaluations add, kept in memory until the flusher writes them
 * (usecases/stats-flusher.ts): a Map keyed by project, UTC day and metric, incremented by each
 * evaluation once it has committed, next to the Prometheus increments (no statement). The day is
 * the evaluation's time, passed in. Deltas only: every process adds its own, so N processes
 * flushing to one database add up.
 */
export function makeStatsTally() {
  let pending = new Map<string, StatsDelta>();
  const addDelta = (d: StatsDelta) => {
    const key = `${d.projectId}\u0000${d.day}\u0000${d.metric}`;
    const kept = pending.get(key);
    if (kept) kept.count += d.count;
    else pending.set(key, { ...d });
  };
  return {
    /** One evaluation of `projectId` at `at`: one more for each of its metrics (evaluationMetrics). */
    add(projectId: string, at: Date, metrics: readonly string[]): void {
      const day = dayOf(at);
      for (const metric of metrics) addDelta({ projectId, day, metric, count: 1 });
    },
    /** Every delta kept, and the tally emptied (what a flush writes). */
    drain(): StatsDelta[] {
      const drained = [...pending.values()];
      pending = new Map();
      return drained;
    },
    /** Deltas a failed flush could not write, kept again (added to what came meanwhile). */
    restore(deltas: readonly StatsDelta[]): void {
      for (const d of deltas) addDelta(d);
    },
    /** Drops a project's deltas (its data was reset: what was counted before must not come back). */
    forget(projectId: string): void {
      for (const [key, d] of pending) if (d.projectId === projectId) pending.delete(key);
    },
    /** How many counts wait for the next flush. */
    get size(): number {
      return pending.size;
    },
  };
}

export type StatsTally = ReturnType<typeof makeStatsTally>;
