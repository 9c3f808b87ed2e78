/**
 * The `trustgate` command: operating a Trustgate installation from a shell.
 *
 *   trustgate project create --name N [--webhook-url U] [--groups] [--test] [--json]
 *   trustgate project list [--json]
 *   trustgate project rotate-key <project_id> [--json]
 *   trustgate project add-key <project_id> [--read-only] [--json]
 *   trustgate user add --project P --email E --role R [--sso-only] [--json] | list [--project P] [--json] | disable <email>
 *   trustgate project set-webhook <project_id> <url|--clear>
 *   trustgate project set <project_id> [--name N] [--threshold X] [--groups] [--webhook-url U | --clear-webhook]
 *                         [--webhook-events E,E] [--retention-sessions-days N|keep]
 *                         [--retention-verification-media-days N|keep]
 *                         [--retention-delivered-webhooks-days N|keep] [--json]
 *   trustgate project audit <project_id> [--limit N] [--cursor C] [--json]
 *   trustgate project rotate-webhook-secret <project_id> [--grace-seconds N] [--json]
 *   trustgate project reset <project_id> [--yes-delete-live-data] [--json]
 *   trustgate rules pull <project_id> [file] | push <project_id> <file> [--expected-version N] | test <file>
 *   trustgate account label <account_id> fraud|legit [--note N] [--project P] [--json]
 *   trustgate iplist add|remove <tor|vpn|proxy|datacenter|fraud> <ip-or-cidr> [--json]
 *   trustgate iplist show <list> [--json]
 *   trustgate iplist sync [<list>...] [--json]
 *   trustgate webhooks list [--status pending|delivered|failed] [--json]
 *   trustgate webhooks replay <request_id>
 *   trustgate webhooks test [project_id] [--json]
 *   trustgate worker [--poll-ms N]  (delivers webhooks, ends expired sessions and runs retention passes until stopped)
 *   trustgate migrate  (applies the pending database migrations, under the migration lock)
 *   trustgate backup FILE | restore FILE  (the database, secret key, media and IP lists in one archive: cli/backup.ts)
 *
 * It uses the same configuration as the server (DATABASE_URL, DATA_DIR, TRUSTGATE_SECRET_KEY,
 * IP_LISTS_DIR), and names the database it opens on stderr. The IP lists are files the server reloads by itself; they need no database.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { databaseLocation, loadConfig, sqliteFile, type Config } from '../config';
import { backup, restore } from './backup';
import {
  addToIpList,
  IP_LIST_NAMES,
  ipListFile,
  isIpListName,
  normaliseIpListEntry,
  readIpList,
  removeFromIpList,
  syncIpLists,
  type IpListName,
} from '../geo/ip-lists';
import { makeLogger, type Logger } from '../logger';
import { makeRuntime, openDatabase, type Runtime } from '../composition';
import { migrate } from '../storage/db';
import { runAccount } from './account';
import { print, UsageError, ValueError, type Out } from './command';
import { runProject } from './project';
import { pullRules, pushRules, testRulesFile } from './rules';
import { runWebhooks } from './webhooks';
import { readSecretFromStdin, runUser, USER_USAGE, UserUsageError, type ReadSecret } from './users';

const USAGE = `usage:
  trustgate project create --name NAME [--webhook-url URL] [--groups] [--test] [--json]
      --test: a test project (keys tg_test_…, forced outcomes for documented account ids:
      docs/test-mode.md); its data never mixes with other projects'
  trustgate project list [--json]
  trustgate project rotate-key PROJECT_ID [--json]
      revokes every key of the project (read-only ones too) and prints a new full one
  trustgate project add-key PROJECT_ID [--read-only] [--json]
      a further key beside the others, shown once; --read-only: it may only send GET requests
  trustgate project set-webhook PROJECT_ID (URL | --clear)
  trustgate project set PROJECT_ID [--name NAME] [--threshold X] [--groups]
                        [--webhook-url URL | --clear-webhook] [--webhook-events E,E]
                        [--retention-sessions-days N|keep] [--retention-verification-media-days N|keep]
                        [--retention-delivered-webhooks-days N|keep] [--json]
      changes the project's settings (as PATCH /project does) and records the change in its
      audit as made by \`cli\`: --threshold between 0 and 1 decides the next evaluations;
      --groups turns groups on (they cannot be turned off); --webhook-events, the event types
      the project is sent, separated by commas (webhooks.yaml; '' sends none);
      --retention-*-days, days the worker keeps sessions, verification media and delivered
      webhooks (1 to 36500; keep: no limit, the default; docs/deploy.md, "Retention")
  trustgate project audit PROJECT_ID [--limit N] [--cursor CURSOR] [--json]
      the changes to the project's settings and the labels set on its accounts, newest first (as GET /audit)
  trustgate project rotate-webhook-secret PROJECT_ID [--grace-seconds N] [--json]
      a new webhook secret, shown once; the previous one keeps signing beside it (a second v1
      in x-signature) for N seconds (default 86400, at most 604800; 0: stops at once)
  trustgate project reset PROJECT_ID [--yes-delete-live-data] [--json]
      deletes the project's sessions, accounts, evaluations, links, list memberships,
      verification sessions and webhooks in one transaction (keys, webhook, lists stay);
      a live project only with --yes-delete-live-data
  trustgate rules pull PROJECT_ID [FILE]
      the project's rules document with its version (docs/rules.md), to FILE (YAML when it
      ends in .yaml or .yml, else JSON) or to stdout as JSON
  trustgate rules push PROJECT_ID FILE [--expected-version N]
      checks FILE and stores it as the next version (as PUT /rules, audited as \`cli\`); every
      error is printed with its path and rule and nothing is stored; with --expected-version,
      only over that version
  trustgate rules test FILE
      the server's checks of a rules document, locally (no database); exit 1 on errors
  trustgate account label ACCOUNT_ID (fraud | legit) [--note NOTE] [--project PROJECT_ID] [--json]
      labels the account (as POST /account/{account_id}/label does), audited as made by
      \`cli\`; the project is the only one when none is named
${USER_USAGE}  trustgate iplist add LIST (IP | CIDR) [--json]
  trustgate iplist remove LIST (IP | CIDR) [--json]
  trustgate iplist show LIST [--json]
      LIST is one of tor, vpn, proxy, datacenter, fraud, relay; the files live in IP_LISTS_DIR
      (default DATA_DIR/ip-lists) and a running server picks up changes by itself.
  trustgate iplist sync [LIST...] [--json]
      downloads the published lists (default: tor, relay, vpn; sources IPLIST_SOURCE_<LIST>,
      a URL or a file), checks each and swaps it in whole (IP_LISTS_DIR/synced); a list whose
      download fails or does not check is kept as it was, and the command exits 1
  trustgate webhooks list [--status pending|delivered|failed] [--json]
  trustgate webhooks replay REQUEST_ID
      a replayed webhook is sent again with the same request_id (x-event-id) and body
  trustgate webhooks test [PROJECT_ID] [--json]
      sends one signed webhook.test event to the project's webhook URL (the only project when
      none is named), as deliveries are sent, and prints the receiver's status and body
  trustgate worker [--poll-ms N]
      delivers webhooks, ends verification sessions after 30 days and runs the retention
      passes (RETENTION_INTERVAL_MS) until SIGINT/SIGTERM;
      run it with WEBHOOK_WORKER=off on the servers to deliver from separate processes.
      On PostgreSQL it is woken by NOTIFY as soon as a webhook is queued; it also looks for
      due webhooks every N ms (default 1000), which on SQLite is how it finds new ones
  trustgate migrate
      applies the pending database migrations and exits (servers also apply them at start);
      processes starting at once take turns under a lock, so it is safe beside running servers
  trustgate backup FILE
      writes one archive (gzipped tar, mode 0600): a consistent snapshot of the SQLite database
      taken while servers run, the secret key, the media and the IP lists. On PostgreSQL the
      database is not in it: back it up with pg_dump (README)
  trustgate restore FILE
      restores an archive into the configured DATA_DIR, which must be empty, and checks it
`;

export async function run(argv: string[], runtime: Runtime, out: Out): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      'webhook-url': { type: 'string' },
      groups: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      clear: { type: 'boolean', default: false },
      status: { type: 'string' },
      test: { type: 'boolean', default: false },
      'yes-delete-live-data': { type: 'boolean', default: false },
      threshold: { type: 'string' },
      'clear-webhook': { type: 'boolean', default: false },
      limit: { type: 'string' },
      cursor: { type: 'string' },
      'grace-seconds': { type: 'string' },
      'expected-version': { type: 'string' },
      'webhook-events': { type: 'string' },
      'retention-sessions-days': { type: 'string' },
      'retention-verification-media-days': { type: 'string' },
      'retention-delivered-webhooks-days': { type: 'string' },
      note: { type: 'string' },
      project: { type: 'string' },
      'read-only': { type: 'boolean', default: false },
    },
  });
  const [area, command, ...rest] = positionals;
  if (area === 'webhooks') return runWebhooks(command, rest, values, runtime, out);
  if (area === 'rules') return runRules(command, rest, values['expected-version'], runtime, out);
  if (area === 'account') return runAccount(command, rest, values, runtime, out);
  if (area === 'project') return runProject(command, rest, values, runtime, out);
  throw new UsageError();
}

/** `trustgate rules pull|push` (`test` needs no database: cli() runs it first). */
async function runRules(
  command: string | undefined,
  rest: string[],
  expected: string | undefined,
  runtime: Runtime,
  out: Out,
): Promise<void> {
  const [projectId, file, ...extra] = rest;
  if (command === 'pull' && projectId && extra.length === 0 && expected === undefined)
    return pullRules(runtime.services.rules, projectId, file, out);
  if (command === 'push' && projectId && file && extra.length === 0) {
    if (expected !== undefined && !/^[0-9]{1,9}$/.test(expected))
      throw new UsageError(`--expected-version must be a version number, not ${JSON.stringify(expected)}`);
    return pushRules(
      runtime.services.rules,
      projectId,
      file,
      expected === undefined ? undefined : Number(expected),
      out,
    );
  }
  throw new UsageError(
    `rules ${command ?? ''} needs ${command === 'push' ? 'a PROJECT_ID and a FILE' : 'a PROJECT_ID'}`,
  );
}

/** `trustgate iplist …`: edits and shows the operator's IP list files in `dir`. */
export function runIpList(argv: string[], dir: string, out: Out): void {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { json: { type: 'boolean', default: false } },
  });
  const [area, command, list, address, ...extra] = positionals;
  if (area !== 'iplist' || !['add', 'remove', 'show'].includes(command ?? '')) throw new UsageError();
  if (!list || !isIpListName(list))
    throw new UsageError(`iplist ${command} needs a LIST: one of ${IP_LIST_NAMES.join(', ')}`);
  if (command === 'show') {
    if (address !== undefined) throw new UsageError('iplist show takes only a LIST');
    const { file, entries, invalid } = readIpList(dir, list);
    if (values.json) out(JSON.stringify({ list, file, entries, invalid_lines: invalid }, null, 2));
    else {
      if (entries.length === 0) out(`${list}: no entries in ${file}`);
      entries.forEach((e) => out(e));
      invalid.forEach((l) => out(`# skipped ${file} line ${l.line}: ${l.text}`));
    }
    return;
  }
  if (!address || extra.length > 0)
    throw new UsageError(`iplist ${command} needs a LIST and one IP address or CIDR block`);
  const entry = normaliseIpListEntry(address);
  if (!entry) throw new UsageError(`not an IP address or CIDR block: ${address}`);
  const file = ipListFile(dir, list);
  if (command === 'add') {
    const added = addToIpList(dir, list, entry);
    print(out, values.json, { list, entry, added, file }, [
      added ? `added ${entry} to ${list} (${file})` : `${entry} is already on ${list}`,
    ]);
  } else {
    const removed = removeFromIpList(dir, list, entry);
    print(out, values.json, { list, entry, removed, file }, [
      removed ? `removed ${entry} from ${list} (${file})` : `${entry} is not on ${list}`,
    ]);
  }
}

/**
 * `trustgate iplist sync [LIST...]`: each configured list (or those named) downloaded, checked
 * and swapped in; resolves to the exit code (0 all synced, 1 one or more kept as they were).
 */
export async function runIpListSync(
  argv: string[],
  config: Pick<Config, 'ipListsDir' | 'dataDir' | 'ipListSources' | 'ipListSyncTimeoutMs'>,
  io: { stdout: Out; stderr: Out },
  deps: { fetch: typeof fetch; now: () => Date } = { fetch, now: () => new Date() },
): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { json: { type: 'boolean', default: false } },
  });
  const named = positionals.slice(2);
  const configured = config.ipListSources as Partial<Record<IpListName, string>>;
  for (const list of named) {
    if (!isIpListName(list))
      throw new ValueError(
        `iplist sync: unknown list ${JSON.stringify(list)}; the lists are ${IP_LIST_NAMES.join(', ')}\n`,
      );
    if (!configured[list])
      throw new ValueError(
        `iplist sync: ${list} has no source; set IPLIST_SOURCE_${list.toUpperCase()} to a URL or file\n`,
      );
  }
  const sources = Object.fromEntries(
    Object.entries(configured).filter(([list]) => named.length === 0 || named.includes(list)),
  ) as Partial<Record<IpListName, string>>;
  if (Object.keys(sources).length === 0)
    throw new ValueError('iplist sync: no list has a source (every IPLIST_SOURCE_<LIST> is off)\n');
  const dir = config.ipListsDir ?? path.join(config.dataDir, 'ip-lists');
  const outcomes = await syncIpLists(sources, { dir, timeoutMs: config.ipListSyncTimeoutMs, ...deps });
  if (values.json) io.stdout(JSON.stringify({ lists: outcomes }, null, 2));
  for (const o of outcomes) {
    if (o.ok) {
      const was = o.previous ? ` (was ${o.previous.entries}, synced ${o.previous.syncedAt.toISOString()})` : '';
      if (!values.json) io.stdout(`${o.list}: ${o.entries} entries from ${o.source}${was}`);
    } else {
      const kept = o.kept
        ? `the list in use is kept (${o.kept.entries} entries, synced ${o.kept.syncedAt.toISOString()})`
        : 'the list stays empty (never synced)';
      io.stderr(`trustgate: iplist sync: ${o.list}: download from ${o.source} ${o.error}; ${kept}`);
    }
  }
  return outcomes.every((o) => o.ok) ? 0 : 1;
}

/** `trustgate worker`'s options: the fallback poll's interval. */
function workerPollMs(argv: string[]): number | undefined {
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

/** `trustgate migrate`: the pending migrations applied (waiting for another process's), and what was applied. */
async function runMigrate(argv: string[], config: Config, logger: Logger, io: CliIo): Promise<number> {
  if (argv.length > 1) throw new UsageError('migrate takes no arguments');
  const db = openDatabase(config, logger);
  try {
    const applied = await migrate(db);
    for (const name of applied) io.stdout(`applied ${name}\n`);
    io.stdout(applied.length ? `${applied.length} migrations applied\n` : 'the database is up to date\n');
    return 0;
  } finally {
    await db.destroy();
  }
}

/** `trustgate backup FILE` and `trustgate restore FILE` (cli/backup.ts). */
async function runBackup(argv: string[], config: Config, io: CliIo): Promise<number> {
  const [command, file, ...extra] = argv;
  if (!file || extra.length > 0) throw new UsageError(`${command} needs one FILE`);
  const out = (line: string) => io.stdout(line + '\n');
  if (command === 'backup') {
    const r = await backup(file, config, new Date());
    out(`backup written to ${r.file}`);
    out(
      r.database === 'sqlite'
        ? `  database: a snapshot of the SQLite database (migrations up to ${r.migration ?? 'none'})`
        : '  database: not included (PostgreSQL: back it up with pg_dump, README "Backups and upgrades")',
    );
    out('  secret key: included; the archive opens the stored secrets, so keep it as safe as the key');
    out(`  media files: ${r.mediaFiles}`);
    out(`  IP list files: ${r.ipListFiles}`);
    return 0;
  }
  const r = await restore(file, config);
  out(`restored the backup of ${r.createdAt} into ${config.dataDir}`);
  out(
    r.database === 'sqlite'
      ? `  database: ${sqliteFile(config)} (migrations up to ${r.migration ?? 'none'}; newer ones run when the server starts)`
      : '  database: not in the archive (PostgreSQL: restore your pg_dump with pg_restore)',
  );
  out(
    r.secretKey === 'file'
      ? `  secret key: ${path.join(config.dataDir, 'secret.key')}`
      : '  secret key: the same as TRUSTGATE_SECRET_KEY (not written)',
  );
  out(`  media files: ${r.mediaFiles}`);
  out(`  IP list files: ${r.ipListFiles}`);
  return 0;
}

export interface CliIo {
  env: NodeJS.ProcessEnv;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Reads a password (`user add`): the process's stdin unless given. */
  readSecret?: ReadSecret;
}

const processIo: CliIo = {
  env: process.env,
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
  readSecret: readSecretFromStdin,
};

/** Runs the command; resolves to the exit code (0 done, 1 failed, 2 usage). */
export async function cli(argv: string[], io: CliIo = processIo): Promise<number> {
  let runtime: Runtime | undefined;
  try {
    if (argv.length === 0 || argv[0] === '--help' || argv[0] === 'help') {
      io.stdout(USAGE);
      return argv.length === 0 ? 2 : 0;
    }
    if (argv[0] === 'rules' && argv[1] === 'test') {
      if (argv.length !== 3) throw new UsageError('rules test needs one FILE');
      return testRulesFile(
        argv[2]!,
        (line) => io.stdout(line + '\n'),
        (line) => io.stderr(line + '\n'),
      );
    }
    const config = loadConfig(io.env);
    if (argv[0] === 'iplist' && argv[1] === 'sync') {
      return await runIpListSync(argv, config, {
        stdout: (line) => io.stdout(line + '\n'),
        stderr: (line) => io.stderr(line + '\n'),
      });
    }
    if (argv[0] === 'iplist') {
      runIpList(argv, config.ipListsDir ?? path.join(config.dataDir, 'ip-lists'), (line) => io.stdout(line + '\n'));
      return 0;
    }
    const pollMs = argv[0] === 'worker' ? workerPollMs(argv.slice(1)) : undefined;
    const logger = makeLogger(io.env.LOG_LEVEL || (argv[0] === 'worker' ? 'info' : 'warn'), {
      write: io.stderr,
    } as never);
    // Which database this is, on stderr (stdout stays the command's output): a DATA_DIR left to its default is the installation's.
    // The worker's stderr is its JSON log, so there it is a log line.
    if (argv[0] === 'worker') logger.info({ database: databaseLocation(config) }, 'database');
    else io.stderr(`database: ${databaseLocation(config)}\n`);
    if (argv[0] === 'migrate') return await runMigrate(argv, config, logger, io);
    if (argv[0] === 'backup' || argv[0] === 'restore') return await runBackup(argv, config, io);
    // The CLI never analyses images: the engine's modules are not even loaded.
    runtime = await makeRuntime(config, logger, { ipData: false, analysis: false, telemetry: false });
    if (argv[0] === 'worker') {
      const stop = new AbortController();
      for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => stop.abort());
      await runtime.startWorker(stop.signal, pollMs ? { pollMs } : {});
      return 0;
    }
    if (argv[0] === 'user') {
      await runUser(argv, runtime, (line) => io.stdout(line + '\n'), io.readSecret ?? readSecretFromStdin);
      return 0;
    }
    await run(argv, runtime, (line) => io.stdout(line + '\n'));
    return 0;
  } catch (err) {
    if (err instanceof UsageError || err instanceof UserUsageError) {
      io.stderr(usageMessage(err));
      return 2;
    }
    io.stderr(`trustgate: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  } finally {
    await runtime?.close();
  }
}

/** What a usage error prints: the usage text follows what was wrong, so that the modules need not know it. */
function usageMessage(error: UsageError | UserUsageError): string {
  if (error instanceof ValueError || error instanceof UserUsageError) return error.message;
  return error.message ? `${error.message}\n${USAGE}` : USAGE;
}
