/**
 * The IP data files' digests across nodes: each process knows the SHA-256 of each IP data file it
 * loaded (GET /healthz `data.files`, the `trustgate_data_file_info` metric); on PostgreSQL it also
 * records them in the database under its node name at an interval, reads the other nodes' recent
 * records, and reports those that loaded different files (in /healthz, and a warning logged once
 * per change). The comparison itself is pure (domain/data-files.ts).
 */
import type { DataFileHealth } from '../api-types';
import { DAY_MS, type Clock } from '../clock';
import { compareDataFiles, differencesKey, type DataFileDigest, type NodeDataFile } from '../domain/data-files';
import type { Logger } from '../logger';

/** Where the nodes' records live (storage/repositories/node-data-files.ts). */
export interface DataFileRecords {
  record(node: string, files: readonly DataFileDigest[], at: Date): Promise<void>;
  since(since: Date): Promise<NodeDataFile[]>;
  prune(before: Date): Promise<number>;
}

export interface DataFileWatchOptions {
  /** This process's name among the nodes. */
  node: string;
  /** The digests of what is loaded now (they change when a file is reloaded). */
  digests: () => DataFileDigest[];
  /** The nodes' records; absent (SQLite, one node): nothing is compared. */
  records?: DataFileRecords;
  clock: Clock;
  logger: Logger;
  /** How often the records are written and read. */
  intervalMs: number;
}

/** A node that has not recorded its files for this many intervals (and at least 30 s) is not compared. */
const FRESH_INTERVALS = 4;
const FRESH_FLOOR_MS = 30_000;
/** Rows of nodes not seen for a day are removed. */
const PRUNE_AFTER_MS = DAY_MS;

export function makeDataFileWatch(options: DataFileWatchOptions) {
  const { node, records, clock, logger } = options;
  const freshMs = Math.max(FRESH_INTERVALS * options.intervalMs, FRESH_FLOOR_MS);
  let compared: DataFileHealth[] | undefined;
  let shown = '';
  let timer: NodeJS.Timeout | undefined;

  /** Records this node's files, reads the others', and logs when the differences change. */
  async function runOnce(): Promise<void> {
    if (!records) return;
    const now = clock.now();
    const mine = options.digests();
    await records.record(node, mine, now);
    compared = compareDataFiles(
      mine,
      await records.since(new Date(now.getTime() - freshMs)),
      node,
      new Date(now.getTime() - freshMs),
    );
    const key = differencesKey(compared);
    if (key !== shown) {
      const differing = compared.filter((f) => f.differing_nodes.length > 0);
      if (key)
        logger.warn({ node, files: differing }, 'other nodes loaded different IP data files (GET /healthz data.files)');
      else logger.info({ node }, 'every node loaded the same IP data files again');
      shown = key;
    }
    await records.prune(new Date(now.getTime() - PRUNE_AFTER_MS));
  }

  return {
    node,
    runOnce,
    /** What /healthz shows: this process's files as loaded now, with the nodes that differed at the last comparison. */
    health(): DataFileHealth[] {
      return options.digests().map((d) => ({
        ...d,
        differing_nodes: compared?.find((c) => c.file === d.file && c.sha256 === d.sha256)?.differing_nodes ?? [],
      }));
    },
    /** Compares at once, then at every interval (a failed pass is logged and tried again at the next). */
    async start(): Promise<void> {
      if (!records || timer) return;
      const pass = () =>
        runOnce().catch((err: Error) =>
          logger.warn({ err: err.message }, 'could not compare the IP data files with the other nodes'),
        );
      await pass();
      timer = setInterval(() => void pass(), options.intervalMs);
      timer.unref();
    },
    stop(): void {
      if (timer) clearInterval(timer);
      timer = undefined;
    },
  };
}

export type DataFileWatch = ReturnType<typeof makeDataFileWatch>;
