/**
 * Work that must not overlap, queued by key within this process: each call for a key starts when
 * the previous call for that key has settled; calls for different keys run side by side.
 *
 * Authenticates of one account use it: they read the account, evaluate and write it back under a
 * version check, so a crowd of them at once (a retrying client, a login storm) would otherwise
 * keep invalidating each other's reads and run out of attempts. Queued, only requests reaching
 * other processes can still race, and the version check and its retries settle those.
 */
export function makeOneAtATime() {
  const tails = new Map<string, Promise<unknown>>();
  return {
    run<T>(key: string, work: () => Promise<T>): Promise<T> {
      const before = tails.get(key) ?? Promise.resolve();
      const result = before.then(work, work);
      const tail = result.catch(() => undefined);
      tails.set(key, tail);
      void tail.then(() => {
        if (tails.get(key) === tail) tails.delete(key);
      });
      return result;
    },
    /** Keys with work queued or running (for tests). */
    get size(): number {
      return tails.size;
    },
  };
}
