/**
 * The files a backup writes before its archive is complete, kept private and removed whatever
 * ends it: the database's plaintext snapshot (every email and phone) and the partial archive.
 */
import fs from 'node:fs';
import path from 'node:path';

/** Where a backup writes its database's snapshot: a folder of DATA_DIR's, the service user's alone. */
const snapshotsDir = (dataDir: string) => path.join(dataDir, 'backup-snapshots');

/** Whether a process of this id runs (EPERM: it does, as another user). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * What killed backups left (a SIGKILL runs no clean-up): in `dir`, the files `named` matches
 * whose process (its pid, the pattern's first group) no longer runs, or is this one (an earlier
 * process of the same id). A backup running beside this one keeps its files.
 */
function removeLeftovers(dir: string, named: RegExp): void {
  if (!fs.existsSync(dir)) return;
  for (const name of fs.readdirSync(dir)) {
    const pid = Number(named.exec(name)?.[1]);
    if (pid > 0 && (pid === process.pid || !isRunning(pid))) fs.rmSync(path.join(dir, name), { force: true });
  }
}

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The partial archives of killed backups to `target` (`<target>.<pid>.tmp`, 0600), removed. */
export function removeLeftoverArchives(target: string): void {
  removeLeftovers(path.dirname(target), new RegExp(`^${escaped(path.basename(target))}\\.(\\d+)\\.tmp$`));
}

/**
 * The snapshot's file, empty (VACUUM INTO writes into an empty file), created 0600 in a 0700
 * folder: never readable by another user, not even for the moment between its creation and a
 * chmod, nor after a kill.
 */
export function privateSnapshot(dataDir: string): string {
  const dir = snapshotsDir(dataDir);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.chmodSync(dir, 0o700);
  removeLeftovers(dir, /^(\d+)\.sqlite/);
  const file = path.join(dir, `${process.pid}.sqlite`);
  fs.closeSync(fs.openSync(file, 'wx', 0o600));
  return file;
}

const STOPPING_SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;

/**
 * Removes `files` when a stopping signal arrives, then lets the signal end the process as it
 * would have (unless something else of the process listens for it); the returned function
 * stops listening.
 */
export function removedOnSignal(files: readonly string[]): () => void {
  const onSignal = (signal: NodeJS.Signals) => {
    for (const file of files) fs.rmSync(file, { force: true });
    stop();
    if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
  };
  const stop = () => {
    for (const signal of STOPPING_SIGNALS) process.off(signal, onSignal);
  };
  for (const signal of STOPPING_SIGNALS) process.on(signal, onSignal);
  return stop;
}
