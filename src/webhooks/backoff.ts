/**
 * When to try a failed webhook again: the schedule of webhooks.yaml (its **Delivery** paragraph). After the n-th failed attempt
 * wait 3 s, 10 s, 3 min, 30 min, 1 h, 3 h, 5 h, then every 10 h, plus 0–10 % jitter; at most
 * 24 retries and never past 8 days after the first attempt. A 429's Retry-After is honoured
 * (capped at 10 h). The policy is configuration, so tests can shrink it.
 */
export interface RetryPolicy {
  /** Waits after the 1st, 2nd, … failed attempt. */
  delaysMs: readonly number[];
  /** The wait after every later failed attempt. */
  repeatMs: number;
  /** Retries after the first attempt. */
  maxRetries: number;
  /** No attempt later than this after the first. */
  maxAgeMs: number;
  /** Up to this fraction added at random to each wait. */
  jitter: number;
  /** A Retry-After longer than this is cut to it. */
  retryAfterCapMs: number;
}

const S = 1000;
const MIN = 60 * S;
const H = 60 * MIN;

export const REFERENCE_RETRY_POLICY: RetryPolicy = {
  delaysMs: [3 * S, 10 * S, 3 * MIN, 30 * MIN, 1 * H, 3 * H, 5 * H],
  repeatMs: 10 * H,
  maxRetries: 24,
  maxAgeMs: 8 * 24 * H,
  jitter: 0.1,
  retryAfterCapMs: 10 * H,
};

/** The time of the next attempt after `failedAttempts` failures, or undefined to give up. */
export function nextAttemptAt(
  policy: RetryPolicy,
  input: { failedAttempts: number; firstAttemptAt: Date; now: Date; retryAfterMs?: number; random: () => number },
): Date | undefined {
  const { failedAttempts, firstAttemptAt, now, retryAfterMs, random } = input;
  if (failedAttempts > policy.maxRetries) return undefined;
  const base = policy.delaysMs[failedAttempts - 1] ?? policy.repeatMs;
  const wait =
    retryAfterMs !== undefined && retryAfterMs >= 0
      ? Math.min(retryAfterMs, policy.retryAfterCapMs)
      : base * (1 + policy.jitter * Math.min(1, Math.max(0, random())));
  const at = now.getTime() + wait;
  return at - firstAttemptAt.getTime() > policy.maxAgeMs ? undefined : new Date(at);
}

/** A Retry-After header (seconds, or an HTTP date) as milliseconds from `now`. */
export function parseRetryAfter(value: string | null, now: Date): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isFinite(date) ? Math.max(0, date - now.getTime()) : undefined;
}

/** The reference schedule with every wait multiplied by `scale` (WEBHOOK_RETRY_SCALE). */
export function scaledPolicy(scale: number, base: RetryPolicy = REFERENCE_RETRY_POLICY): RetryPolicy {
  if (scale === 1) return base;
  return {
    ...base,
    delaysMs: base.delaysMs.map((d) => d * scale),
    repeatMs: base.repeatMs * scale,
    maxAgeMs: base.maxAgeMs * scale,
  };
}
