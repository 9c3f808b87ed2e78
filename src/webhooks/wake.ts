/**
 * The dispatcher's wake-up call: what ends its sleep before the poll timer does. Whoever knows
 * that a webhook is due now calls `wake()`: the use case after the transaction that queued it
 * has committed, the PostgreSQL listener on a notification. A wake that comes while nobody
 * sleeps (the dispatcher is busy delivering) is kept, and the next `sleep()` returns at once:
 * no wake is lost between a claim that found nothing and the sleep that follows it.
 */
export interface Wake {
  /** Ends the current sleep, or the next one at once when nobody sleeps now. */
  wake(): void;
  /** Whether a wake is kept for the next sleep (which will then not sleep at all). */
  readonly pending: boolean;
  /** Sleeps `ms`, until a wake, or until `signal` aborts, whichever comes first; never rejects. */
  sleep(ms: number, signal: AbortSignal): Promise<'woken' | 'timer' | 'aborted'>;
}

export function makeWake(): Wake {
  let pending = false;
  const sleepers = new Set<() => void>();
  return {
    wake() {
      if (sleepers.size === 0) pending = true;
      for (const end of sleepers) end();
    },
    get pending() {
      return pending;
    },
    sleep(ms, signal) {
      if (signal.aborted) return Promise.resolve('aborted');
      if (pending) {
        pending = false;
        return Promise.resolve('woken');
      }
      return new Promise((resolve) => {
        const done = (why: 'woken' | 'timer' | 'aborted') => {
          clearTimeout(timer);
          signal.removeEventListener('abort', onAbort);
          sleepers.delete(onWake);
          resolve(why);
        };
        const onWake = () => done('woken');
        const onAbort = () => done('aborted');
        // setTimeout fires at once beyond 2^31 - 1 ms (about 24.8 days): longer sleeps are cut to that.
        const timer = setTimeout(() => done('timer'), Math.min(Math.max(0, ms), 2 ** 31 - 1));
        signal.addEventListener('abort', onAbort, { once: true });
        sleepers.add(onWake);
      });
    },
  };
}
