/** Time and randomness come in through these, so that tests can fix them. */
import { randomBytes, randomUUID } from 'node:crypto';

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
