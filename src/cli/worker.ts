/**
 * `trustgate worker [--poll-ms N]`: delivers webhooks, ends expired verification sessions and runs
 * the retention passes until SIGINT or SIGTERM.
 */
import { parseArgs } from 'node:util';
import type { Runtime } from '../composition';
import { UsageError } from './command';

/** `trustgate worker`'s options: the fallback poll's interval (cli() reads it before opening anything). */
export function workerPollMs(argv: string[]): number | undefined {
  let raw: string | undefined;
  try {
    raw = parseArgs({ args: argv, options: { 'poll-ms': { type: 'string' } } }).values['poll-ms'];
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  if (raw === undefined) return undefined;
  const ms = Number(raw);
  if (!Number.isInteger(ms) || ms <= 0)
    throw new UsageError(`--poll-ms is a whole number of milliseconds above 0, not ${raw}`);
  return ms;
}

/** Runs the worker until a signal stops it; resolves to the exit code. */
export async function runWorker(runtime: Pick<Runtime, 'startWorker'>, pollMs: number | undefined): Promise<number> {
  const stop = new AbortController();
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => stop.abort());
  await runtime.startWorker(stop.signal, pollMs ? { pollMs } : {});
  return 0;
}
