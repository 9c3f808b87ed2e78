import { nextAttemptAt, parseRetryAfter, REFERENCE_RETRY_POLICY as P } from '../../src/webhooks/backoff';

const first = new Date('2026-11-20T12:00:00Z');
const after = (failedAttempts: number, now = first, extra: { retryAfterMs?: number; random?: () => number } = {}) =>
  nextAttemptAt(P, {
    failedAttempts,
    firstAttemptAt: first,
    now,
    random: extra.random ?? (() => 0),
    retryAfterMs: extra.retryAfterMs,
  });

describe("the retry schedule (webhooks.yaml's Delivery)", () => {
  it('when attempts fail one after another, then the waits are 3 s, 10 s, 3 min, 30 min, 1 h, 3 h, 5 h, then 10 h', () => {
    const waits = [1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => after(n)!.getTime() - first.getTime());
    expect(waits).toEqual([3e3, 10e3, 180e3, 1800e3, 3600e3, 3 * 3600e3, 5 * 3600e3, 10 * 3600e3, 10 * 3600e3]);
  });

  it('when jitter is drawn, then it adds at most 10 %', () => {
    expect(after(2, first, { random: () => 1 })!.getTime() - first.getTime()).toBe(11e3);
    expect(after(2, first, { random: () => 0.5 })!.getTime() - first.getTime()).toBe(10.5e3);
  });

  it('when 24 retries were made, then there is no 25th', () => {
    expect(after(24)).toBeDefined();
    expect(after(25)).toBeUndefined();
  });

  it('when the next attempt would fall past 8 days after the first, then the webhook gives up', () => {
    const late = new Date(first.getTime() + 8 * 24 * 3600e3 - 3600e3);
    expect(after(12, late)).toBeUndefined();
    expect(after(12, new Date(first.getTime() + 24 * 3600e3))).toBeDefined();
  });

  it('when a 429 says Retry-After, then it is honoured, capped at 10 hours', () => {
    expect(after(1, first, { retryAfterMs: 60e3 })!.getTime() - first.getTime()).toBe(60e3);
    expect(after(1, first, { retryAfterMs: 48 * 3600e3 })!.getTime() - first.getTime()).toBe(10 * 3600e3);
  });

  it('when Retry-After is seconds or a date, then both are read', () => {
    expect(parseRetryAfter('120', first)).toBe(120e3);
    expect(parseRetryAfter(new Date(first.getTime() + 30e3).toUTCString(), first)).toBe(30e3);
    expect(parseRetryAfter('soon', first)).toBeUndefined();
    expect(parseRetryAfter(null, first)).toBeUndefined();
  });
});
