/** Runs `work`, answering `fallback` if it throws: a browser API failing must never break the host page. */
export function attempt<T>(work: () => T): T | undefined;
export function attempt<T, F>(work: () => T, fallback: F): T | F;
export function attempt<T, F>(work: () => T, fallback?: F): T | F | undefined {
  try {
    return work();
  } catch {
    return fallback;
  }
}
