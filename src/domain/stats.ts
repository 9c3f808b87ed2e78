/**
 * The overview's counts (getStats): which counts an evaluation adds to (its decision, the
 * signals it raised, on its UTC day), the range a request asks for, and the answer built from
 * the kept rows. Pure: today comes in as `now`.
 */
import type { Decision, EvaluatedRiskSignalScores, EvaluationStats, RiskSignalName } from '../api-types';
import { ON_THRESHOLD } from './signals';

/** The longest range, in days (both ends included). */
export const MAX_STATS_DAYS = 90;
/** The default range: today and the 13 days before it. */
export const DEFAULT_STATS_DAYS = 14;
const DAY_MS = 86_400_000;

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
      .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))
      .map(([signal, count]) => ({ signal: signal as RiskSignalName, count })),
  };
}
