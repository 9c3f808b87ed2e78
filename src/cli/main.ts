/**
 * The `trustgate` command: operating a Trustgate installation from a shell (USAGE below lists
 * every command). This file reads the command line, opens what the command needs (the
 * configuration, the database, the runtime) and maps the outcome to an exit code. Each area's
 * commands live in a module named for it (project.ts, webhooks.ts, account.ts, rules.ts,
 * users.ts, iplist.ts, worker.ts, migrate.ts, backup.ts, secret-key.ts); what they share, in command.ts.
 *
 * It uses the same configuration as the server (DATABASE_URL, DATA_DIR, TRUSTGATE_SECRET_KEY and
 * TRUSTGATE_PREVIOUS_SECRET_KEYS, IP_LISTS_DIR), refuses a database whose secrets its key cannot
 * open as a server does, and names the database it opens on stderr. The IP lists need no database
 * on SQLite (they are IP_LISTS_DIR's files); on PostgreSQL they live in the database.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { databaseLocation, loadConfig, type Config } from '../config';
import { fileListTexts, type IpListTexts } from '../geo/ip-lists';
import { migrate } from '../storage/db';
import { makeLogger } from '../logger';
import { makeRuntime, type Runtime } from '../composition';
import { ipListsDir, openDatabase, openIpListTexts } from '../composition/open';
import { resealAll } from '../storage/reseal';
import { runAccount } from './account';
import { runBackup } from './backup';
import { UsageError, ValueError, type CommandDeps, type Out } from './command';
import { runIpList, runIpListSync } from './iplist';
import { runMigrate } from './migrate';
import { runProject } from './project';
import { runRules, runRulesTest } from './rules';
import { runSecretKey } from './secret-key';
import { readSecretFromStdin, runUser, USER_USAGE, UserUsageError, type ReadSecret } from './users';
import { runWebhooks } from './webhooks';
import { runWorker, workerPollMs } from './worker';

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
  trustgate project set PROJECT_ID [--name NAME] [--threshold X] [--link-floor X] [--groups]
                        [--webhook-url URL | --clear-webhook] [--webhook-events E,E]
                        [--retention-sessions-days N|keep] [--retention-verification-media-days N|keep]
                        [--retention-delivered-webhooks-days N|keep] [--json]
      changes the project's settings (as PATCH /project does) and records the change in its
      audit as made by \`cli\`: --threshold between 0 and 1 decides the next evaluations;
      --link-floor between 0.01 and 1, the score a link must reach (docs/scoring.md);
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
      (default DATA_DIR/ip-lists), on PostgreSQL in the database (IP_LISTS_DIR's files imported
      once when it has none); running servers pick up changes by themselves (every node).
  trustgate iplist sync [LIST...] [--json]
      downloads the published lists (default: tor, relay, vpn; sources IPLIST_SOURCE_<LIST>,
      a URL or a file), checks each and swaps it in whole (IP_LISTS_DIR/synced, or the
      database); a list whose download fails or does not check is kept as it was, and the
      command exits 1
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
  trustgate secret-key reseal
      seals again with TRUSTGATE_SECRET_KEY every value a key of TRUSTGATE_PREVIOUS_SECRET_KEYS
      sealed (the database's, and the media in this node's DATA_DIR), in batches; run it again
      at will. Once it says so, the previous keys may be removed (docs/deploy.md, "The secret key")
`;

/** The commands that share one set of options: any of these options is accepted by each of them. */
export async function run(argv: string[], deps: CommandDeps, out: Out): Promise<void> {
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
      'link-floor': { type: 'string' },
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
  if (area === 'webhooks') return runWebhooks(command, rest, values, deps, out);
  if (area === 'rules') return runRules(command, rest, values, deps, out);
  if (area === 'account') return runAccount(command, rest, values, deps, out);
  if (area === 'project') return runProject(command, rest, values, deps, out);
  throw new UsageError();
}

/** What the commands take of the runtime: the use cases and ports they name, no more. */
function commandDeps({ services, sendTestWebhook, db, secretBox, dataDir }: Runtime): CommandDeps {
  return {
    projects: services.projects,
    projectExists: services.projectExists,
    labels: services.labels,
    rules: services.rules,
    operators: services.operators,
    webhookDeliveries: services.webhookDeliveries,
    webhookLog: services.webhookLog,
    sendTestWebhook,
    // The media folder the server's local store uses (composition/usecases.ts).
    resealSecrets: (onCount) =>
      resealAll({ db, box: secretBox, mediaDir: dataDir && path.join(dataDir, 'media') }, { onCount }),
  };
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
  const out: Out = (line) => io.stdout(line + '\n');
  const err: Out = (line) => io.stderr(line + '\n');
  try {
    if (argv.length === 0 || argv[0] === '--help' || argv[0] === 'help') {
      io.stdout(USAGE);
      return argv.length === 0 ? 2 : 0;
    }
    if (argv[0] === 'rules' && argv[1] === 'test') return runRulesTest(argv, out, err);
    const config = loadConfig(io.env);
    if (argv[0] === 'iplist') return await runIpListCommand(argv, config, io);
    const pollMs = argv[0] === 'worker' ? workerPollMs(argv.slice(1)) : undefined;
    const logger = makeLogger(io.env.LOG_LEVEL || (argv[0] === 'worker' ? 'info' : 'warn'), {
      write: io.stderr,
    } as never);
    // Which database this is, on stderr (stdout stays the command's output): a DATA_DIR left to its default is the installation's.
    // The worker's stderr is its JSON log, so there it is a log line.
    if (argv[0] === 'worker') logger.info({ database: databaseLocation(config) }, 'database');
    else io.stderr(`database: ${databaseLocation(config)}\n`);
    if (argv[0] === 'migrate') return await runMigrate(argv, config, logger, out);
    if (argv[0] === 'backup' || argv[0] === 'restore') return await runBackup(argv, config, out);
    // The CLI never analyses images: the engine's modules are not even loaded. Only the worker
    // listens (for queued webhooks); a one-shot command's changes are announced, never awaited.
    runtime = await makeRuntime(config, logger, {
      ipData: false,
      analysis: false,
      telemetry: false,
      listen: argv[0] === 'worker',
    });
    if (argv[0] === 'worker') return await runWorker(runtime, pollMs);
    if (argv[0] === 'secret-key') return await runSecretKey(argv, commandDeps(runtime), out);
    if (argv[0] === 'user') {
      await runUser(argv, commandDeps(runtime), out, io.readSecret ?? readSecretFromStdin);
      return 0;
    }
    await run(argv, commandDeps(runtime), out);
    return 0;
  } catch (error) {
    if (error instanceof UsageError || error instanceof UserUsageError) {
      io.stderr(usageMessage(error));
      return 2;
    }
    io.stderr(`trustgate: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  } finally {
    await runtime?.close();
  }
}

/**
 * `trustgate iplist …` over where the lists live: IP_LISTS_DIR's files (SQLite: no database
 * opened), or the database (PostgreSQL: migrated first, as every command's runtime is).
 */
async function runIpListCommand(argv: string[], config: Config, io: CliIo): Promise<number> {
  const out: Out = (line) => io.stdout(line + '\n');
  const err: Out = (line) => io.stderr(line + '\n');
  const run = async (texts: IpListTexts) => {
    if (argv[1] === 'sync') return runIpListSync(argv, config, texts, { stdout: out, stderr: err });
    await runIpList(argv, texts, out);
    return 0;
  };
  if (!config.databaseUrl) return run(fileListTexts(ipListsDir(config)));
  io.stderr(`database: ${databaseLocation(config)}\n`);
  const logger = makeLogger(io.env.LOG_LEVEL || 'warn', { write: io.stderr } as never);
  const db = openDatabase(config, logger);
  try {
    await migrate(db);
    return await run(await openIpListTexts(config, db, logger));
  } finally {
    await db.destroy();
  }
}

/** What a usage error prints: the usage text follows what was wrong, so that the modules need not know it. */
function usageMessage(error: UsageError | UserUsageError): string {
  if (error instanceof ValueError || error instanceof UserUsageError) return error.message;
  return error.message ? `${error.message}\n${USAGE}` : USAGE;
}
