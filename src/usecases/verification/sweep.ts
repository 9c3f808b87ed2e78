/**
 * The verification sweep: every open session past its 30 days ends with max_duration_exceeded.
 * The worker runs it every SWEEP_EVERY_MS (composition/jobs.ts), inside the server or in
 * `trustgate worker`.
 */
import type { VerificationDeps } from './deps';
import { endExpired } from './end';

/** How often the worker sweeps. */
export const SWEEP_EVERY_MS = 60_000;

/** Ends every open session past its 30 days; returns how many (at most `limit` a run). */
export async function sweepExpired(deps: VerificationDeps, limit = 500): Promise<number> {
  let ended = 0;
  for (const record of await deps.verifications.expired(deps.clock.now(), limit)) {
    if (await endExpired(deps, record)) ended++;
  }
  return ended;
}
