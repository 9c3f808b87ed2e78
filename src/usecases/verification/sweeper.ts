/**
 * The verification sweeper: ends every open session past its 30 days with
 * max_duration_exceeded (`sweepExpired`, sweep.ts), every `everyMs`, until the signal aborts. It
 * runs beside the webhook dispatcher, inside the server or in `trustgate worker`.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '../../logger';
import { trackLoop } from '../../loops';

export interface SweeperDeps {
  /** Ends the sessions past their time; resolves to how many it ended. */
  sweep(): Promise<number>;
  logger: Logger;
  everyMs?: number;
}

export function runSweeper(deps: SweeperDeps, signal: AbortSignal): Promise<void> {
  const { logger } = deps;
  return trackLoop('verification sweeper', async () => {
    while (!signal.aborted) {
      try {
        const ended = await deps.sweep();
        if (ended > 0) logger.info({ ended }, 'verification sessions ended after 30 days');
      } catch (err) {
        logger.error({ err: (err as Error).message }, 'verification sweeper failed; retrying');
      }
      // Ends early when the signal aborts; the listener goes with the timer (no listener piles up).
      await sleep(deps.everyMs ?? 60_000, undefined, { signal }).catch(() => undefined);
    }
  });
}
