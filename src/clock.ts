/** Time and randomness come in through these, so that tests can fix them. */
import { randomBytes, randomUUID } from 'node:crypto';

/**
 * Durations in the milliseconds a Clock's dates count, each defined once. Here, below the domain,
 * so that config.ts can use them too; domain/numbers.ts passes them on to the layers above it.
 */
export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock that stands still until moved: for tests. */
export function fixedClock(start: Date | string): Clock & { advance(ms: number): void; set(d: Date | string): void } {
  let current = new Date(start);
  return {
    now: () => new Date(current),
    advance(ms: number) {
      current = new Date(current.getTime() + ms);
    },
    set(d: Date | string) {
      current = new Date(d);
    },
  };
}

export interface Random {
  uuid(): string;
  bytes(n: number): Buffer;
}

export const systemRandom: Random = {
  uuid: () => randomUUID(),
  bytes: (n) => randomBytes(n),
};
