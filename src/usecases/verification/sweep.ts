/** The sweeper's work (sweeper.ts runs it): sessions past their 30 days end with max_duration_exceeded. */
import type { VerificationDeps } from './deps';
import { endExpired } from './end';

/** Ends every open session past its 30 days; returns how many (at most `limit` a run). */
export async function sweepExpired(deps: VerificationDeps, limit = 500): Promise<number> {
  let ended = 0;
  for (const record of await deps.verifications.expired(deps.clock.now(), limit)) {
    if (await endExpired(deps, record)) ended++;
  }
  return ended;
}
