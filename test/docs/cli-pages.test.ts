/**
 * The shell blocks of the docs pages that drive the `trustgate` command and `npm start`
 * (console.md, console-auth.md, test-mode.md, rules.md, ip-data.md, deploy.md), taken from the
 * pages (test/readme/examples.ts) and run as written with `bash`, against the compiled server
 * started as a process on a fresh installation: the test's database (SQLite, or a new database
 * of the PostgreSQL server of DATABASE_URL) and a DATA_DIR of its own.
 *
 * What differs from a reader's machine, and why (as in test/readme/examples.test.ts):
 * - `npx trustgate` and `trustgate` are the CLI compiled by compileSources(); `npm start` is the
 *   compiled server, started by the test with the block's assignments (npmStarts).
 * - The placeholders a reader fills in (`PROJECT_ID`, `[PROJECT_ID]`, `<your key>`, the
 *   database's address, the folders and the port of the receiver) get the test's values.
 * - `npm install` in the checkout needs the registry: the repository's node_modules are there.
 * - ANALYSIS_ENGINE=off: no block here needs the face and document models.
 * - `trustgate iplist sync` reads the lists from a loopback server (IPLIST_SOURCE_*): the
 *   publishers are on the Internet, which the tests do not reach.
 * The backup blocks of deploy.md are one engine's each: SQLite's on the SQLite run, PostgreSQL's
 * (pg_dump, createdb, pg_restore) and its `npm start` with DATABASE_URL on the PostgreSQL run.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { PACKAGE_ROOT } from '../../src/spec';
import { makeTestDb, type TestDb } from '../helpers/db';
import { personSession } from '../helpers/evaluation';
import { listServer, torList, relayCsv, vpnList } from '../helpers/list-server';
import { bash, databaseEnv, killAll, send, startServer, type ServerProcess, until } from '../helpers/processes';
import { npmStarts, readmeExamples, substitute } from '../readme/examples';

const SLOW = 300_000;
const PAGES = [
  'docs/console.md',
  'docs/console-auth.md',
  'docs/test-mode.md',
  'docs/rules.md',
  'docs/ip-data.md',
  'docs/deploy.md',
] as const;
type Page = (typeof PAGES)[number];
const read = (page: string) => fs.readFileSync(path.join(PACKAGE_ROOT, page), 'utf8');
const examplesOf = new Map(PAGES.map((page) => [page, readmeExamples(read(page), page)]));
const onPostgres = Boolean(process.env.DATABASE_URL);
const itOnSqlite = onPostgres ? it.skip : it;
const itOnPostgres = onPostgres ? it : it.skip;

function example(page: Page, name: string): string {
  const found = examplesOf.get(page)!.get(name);
  if (!found) throw new Error(`${page} has no example marked <!-- example: ${name} -->`);
  return found.code;
}

/** A password as a reader types it (at least 12 characters). */
const PASSWORD = 'correct horse battery staple';

interface Installation {
  testDb: TestDb;
  env: Record<string, string>;
  server?: ServerProcess;
}

interface Credentials {
  project_id: string;
  api_key: string;
  webhook_secret: string;
}

const installations: Installation[] = [];
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'trustgate-docs-'));

/** A fresh installation: its database, DATA_DIR and secret key; no server yet. */
async function install(): Promise<Installation> {
  const testDb = await makeTestDb();
  const dataDir = fs.mkdtempSync(path.join(scratch, 'data-'));
  const env = { ...databaseEnv(testDb, dataDir, randomBytes(32)), ANALYSIS_ENGINE: 'off' } as Record<string, string>;
  const installation = { testDb, env };
  installations.push(installation);
  return installation;
}

/** Starts the installation's server with a block's `npm start` assignments. */
async function start(installation: Installation, assignments: Record<string, string> = {}) {
  installation.server = await startServer({ ...installation.env, ...assignments });
  return installation.server;
}

async function stop(server: ServerProcess | undefined) {
  if (!server || server.child.exitCode !== null || server.child.signalCode !== null) return;
  server.child.kill('SIGTERM');
  await server.exited;
}

/** The default project the first start wrote to DATA_DIR/default-project.json. */
const defaultProject = (installation: Installation) =>
  JSON.parse(fs.readFileSync(path.join(installation.env.DATA_DIR!, 'default-project.json'), 'utf8')) as Credentials;

const shown = (stdout: string, name: string) => new RegExp(`^${name}:\\s+(\\S+)`, 'm').exec(stdout)?.[1];

const signIn = (server: ServerProcess, email: string, password = PASSWORD) =>
  send(server.port, 'POST', '/console/login', {}, { email, password });

let main: Installation;
let credentials: Credentials;

beforeAll(async () => {
  main = await install();
  await start(main, { WEBHOOK_ALLOW_PRIVATE: '1' });
  credentials = defaultProject(main);
}, SLOW);

afterAll(async () => {
  for (const { server, testDb } of installations) {
    await stop(server);
    await testDb.destroy();
  }
  killAll();
  fs.rmSync(scratch, { recursive: true, force: true });
});

it('when the pages are read, then they mark exactly the blocks this file and the other docs tests run', () => {
  expect(Object.fromEntries([...examplesOf].map(([page, marked]) => [page, [...marked.keys()].sort()]))).toEqual({
    'docs/console.md': ['run-console'],
    'docs/console-auth.md': ['operators', 'read-only-keys', 'sso-operator'],
    // local-mode-*: test/docs/test-mode.test.ts
    'docs/test-mode.md': ['local-mode-curl', 'local-mode-start', 'project-reset', 'test-project', 'webhooks-test'],
    'docs/rules.md': ['rules-cli'],
    'docs/ip-data.md': ['iplist', 'iplist-sync'], // iplist: test/readme/examples.test.ts
    // prometheus-*: test/docs/deploy-metrics.test.ts
    'docs/deploy.md': [
      'backup',
      'postgres-backup',
      'postgres-start',
      'prometheus-alerts',
      'prometheus-scrape',
      'restore',
    ],
  });
});

describe('docs/console.md, "Run it"', () => {
  it(
    'when run on a new installation, then the project is listed, the operator added with the password on stdin, and they sign in to the started server',
    async () => {
      const fresh = await install();
      const { starts, rest } = npmStarts(example('docs/console.md', 'run-console'));
      expect(starts).toEqual([{}]);
      const server = await start(fresh, starts[0]);
      // The checkout's `npm install` (the registry): its node_modules are the repository's.
      expect(rest.split('\n')[0]).toMatch(/^npm install /);
      const [list, ...others] = rest
        .split('\n')
        .slice(1)
        .filter((line) => !line.startsWith('#'));
      const listed = await bash(list!, PACKAGE_ROOT, fresh.env);
      expect(listed.stdout).toContain('Default project');
      const projectId = /\b([0-9a-f-]{36})\b/.exec(listed.stdout)?.[1];
      expect(projectId).toBe(defaultProject(fresh).project_id);
      await bash(substitute(others.join('\n'), { PROJECT_ID: projectId! }), PACKAGE_ROOT, fresh.env, {
        input: `${PASSWORD}\n`,
      });
      expect((await signIn(server, 'ana@example.com')).status).toBe(200);
    },
    SLOW,
  );
});

describe('docs/console-auth.md', () => {
  it('operators: when the four commands run, then both are added with their roles, and only the one disabled cannot sign in', async () => {
    const script = substitute(example('docs/console-auth.md', 'operators'), {
      '[--project PROJECT_ID] [--json]': `--project ${credentials.project_id} --json`,
      PROJECT_ID: credentials.project_id,
    });
    const { stdout } = await bash(script, PACKAGE_ROOT, { ...main.env, PASSWORD }, { input: `${PASSWORD}\n` });
    const listed = JSON.parse(/^\[[\s\S]*\]$/m.exec(stdout)![0]) as { email: string; role: string }[];
    expect(listed.map(({ email, role }) => ({ email, role }))).toEqual(
      expect.arrayContaining([
        { email: 'ana@example.com', role: 'analyst' },
        { email: 'ci@example.com', role: 'viewer' },
      ]),
    );
    expect((await signIn(main.server!, 'ci@example.com')).status).toBe(200);
    expect((await signIn(main.server!, 'ana@example.com')).status).toBe(401);
  });

  it('read-only keys: when both keys are added, then the read-only one reads and is refused a POST, and the full one is not', async () => {
    const script = substitute(example('docs/console-auth.md', 'read-only-keys'), {
      PROJECT_ID: credentials.project_id,
    });
    const { stdout } = await bash(script, PACKAGE_ROOT, main.env);
    const keys = [...stdout.matchAll(/^api_key:\s+(\S+)/gm)].map((m) => m[1]!);
    expect(keys).toHaveLength(2);
    const [readOnly, full] = keys as [string, string];
    const sessionPath = `/session/${randomUUID()}`;
    const body = { session_id: randomUUID(), account: { id: 'acct-1' } };
    expect((await send(main.server!.port, 'GET', sessionPath, { 'x-api-key': readOnly })).status).toBe(400);
    const refused = await send(main.server!.port, 'POST', '/session/authenticate', { 'x-api-key': readOnly }, body);
    expect(refused.status).toBe(403);
    const allowed = await send(main.server!.port, 'POST', '/session/authenticate', { 'x-api-key': full }, body);
    expect(allowed.status).toBe(400); // the session does not exist; the key may write
    expect((await send(main.server!.port, 'GET', sessionPath, { 'x-api-key': credentials.api_key })).status).toBe(400);
  });

  it('single sign-on: when the settings are exported and the operator added with --sso-only, then it is added without a password, and no password signs it in', async () => {
    const script = substitute(example('docs/console-auth.md', 'sso-operator'), {
      'OIDC_CLIENT_SECRET=…': `OIDC_CLIENT_SECRET=${randomBytes(16).toString('hex')}`,
      PROJECT_ID: credentials.project_id,
    });
    // No password is asked for: stdin is empty, which `user add` without --sso-only refuses.
    await bash(script, PACKAGE_ROOT, main.env);
    const { stdout } = await bash(`npx trustgate user list --json`, PACKAGE_ROOT, main.env);
    const operator = (JSON.parse(stdout) as Record<string, unknown>[]).find((o) => o.email === 'ana@acme.example');
    expect(operator).toMatchObject({ role: 'analyst' });
    expect((await signIn(main.server!, 'ana@acme.example')).status).toBe(401);
  });
});

/** A webhook receiver on loopback that answers 200 and keeps the event types it got. */
async function receiver() {
  const events: string[] = [];
  const server = http.createServer((req, res) => {
    events.push(String(req.headers['x-event-type'] ?? ''));
    req.resume().on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { port, events, close: () => new Promise((r) => server.close(r)) };
}

describe('docs/test-mode.md', () => {
  let hook: Awaited<ReturnType<typeof receiver>>;
  let project: Credentials;
  beforeAll(async () => (hook = await receiver()));
  afterAll(() => hook.close());

  it('test projects: when the project is created as written, then its key is a test key and the list marks it [test]', async () => {
    const script = substitute(example('docs/test-mode.md', 'test-project'), {
      'http://127.0.0.1:4000/': `http://127.0.0.1:${hook.port}/`,
    });
    const { stdout } = await bash(script, PACKAGE_ROOT, main.env);
    project = {
      project_id: shown(stdout, 'project_id')!,
      api_key: shown(stdout, 'api_key')!,
      webhook_secret: shown(stdout, 'webhook_secret')!,
    };
    expect(project.api_key).toMatch(/^tg_test_/);
    expect(stdout).toMatch(new RegExp(`${project.project_id}.*\\[test\\]`));
  });

  it("starting clean: when `project reset` runs, then the test project's session is gone and the project's key still works", async () => {
    const session = personSession();
    const ingested = await send(
      main.server!.port,
      'POST',
      '/ingest/session',
      { 'x-project-id': project.project_id },
      session,
    );
    expect(ingested.status).toBe(200);
    const read = () =>
      send(main.server!.port, 'GET', `/session/${session.session_id}`, { 'x-api-key': project.api_key });
    expect((await read()).status).toBe(200);
    const script = substitute(example('docs/test-mode.md', 'project-reset'), { PROJECT_ID: project.project_id });
    await bash(script, PACKAGE_ROOT, main.env);
    expect((await read()).body).toEqual({ statusCode: 400, message: 'Session ID not found' });
  });

  it('checking the webhook endpoint: when `webhooks test` runs with WEBHOOK_ALLOW_PRIVATE=1, as the page says, then the receiver gets webhook.test and the command prints HTTP 200', async () => {
    const script = substitute(example('docs/test-mode.md', 'webhooks-test'), { '[PROJECT_ID]': project.project_id });
    const { stdout } = await bash(script, PACKAGE_ROOT, { ...main.env, WEBHOOK_ALLOW_PRIVATE: '1' });
    expect(stdout).toContain('HTTP 200');
    expect(hook.events).toEqual(['webhook.test']);
  });
});

describe('docs/rules.md', () => {
  it('when pulled, edited to the worked example, tested and pushed as the page says, then GET /rules gives that document', async () => {
    const dir = fs.mkdtempSync(path.join(scratch, 'rules-'));
    const [pull, ...testAndPush] = substitute(example('docs/rules.md', 'rules-cli'), {
      PROJECT_ID: credentials.project_id,
    }).split('\n');
    await bash(pull!, dir, main.env);
    expect(parseYaml(fs.readFileSync(path.join(dir, 'rules.yaml'), 'utf8'))).toMatchObject({ version: 0, rules: [] });
    // The edit: the page's worked example.
    const worked = /```yaml\n([\s\S]*?)```/.exec(read('docs/rules.md').split('## A worked example')[1]!)![1]!;
    fs.writeFileSync(path.join(dir, 'rules.yaml'), worked);
    await bash(testAndPush.join('\n'), dir, main.env);
    const stored = await send(main.server!.port, 'GET', '/rules', { 'x-api-key': credentials.api_key });
    const ids = (parseYaml(worked) as { rules: { id: string }[] }).rules.map((r) => r.id);
    expect(stored.body).toMatchObject({ version: 1, rules: ids.map((id) => ({ id })) });
  });
});

describe("docs/ip-data.md's sync", () => {
  it('when the sync commands run with the sources on a loopback server, then the lists hold the published addresses', async () => {
    const lists = await listServer();
    try {
      lists.serve('/torbulkexitlist', torList());
      lists.serve('/egress-ip-ranges.csv', relayCsv());
      lists.serve('/vpn/ipv4.txt', vpnList());
      const sources = {
        IPLIST_SOURCE_TOR: lists.url('/torbulkexitlist'),
        IPLIST_SOURCE_RELAY: lists.url('/egress-ip-ranges.csv'),
        IPLIST_SOURCE_VPN: lists.url('/vpn/ipv4.txt'),
      };
      const { stdout } = await bash(example('docs/ip-data.md', 'iplist-sync'), PACKAGE_ROOT, {
        ...main.env,
        ...sources,
      });
      expect(stdout.split('\n')).toEqual([
        `tor: 150 entries from ${sources.IPLIST_SOURCE_TOR}`,
        `relay: 1200 entries from ${sources.IPLIST_SOURCE_RELAY}`,
        `vpn: 120 entries from ${sources.IPLIST_SOURCE_VPN}`,
        expect.stringMatching(new RegExp(`^tor: 150 entries from \\S+ \\(was 150, synced [\\dT:.Z-]+\\)$`)),
        '',
      ]);
      // The running server takes them up without a restart (IPLIST_WATCH_MS; on PostgreSQL from the database).
      type Health = { data: { ip_lists: { list: string; synced_at: string | null; entries: number }[] } };
      const synced = async () => {
        const health = (await send(main.server!.port, 'GET', '/healthz')).body as Health;
        return health.data.ip_lists.filter((l) => l.synced_at !== null && l.entries > 0).map((l) => l.list);
      };
      await until(async () => (await synced()).length === 3, 'the server to load the synced lists');
      expect((await synced()).sort()).toEqual(['relay', 'tor', 'vpn']);
    } finally {
      await lists.close();
    }
  });
});

describe('docs/deploy.md', () => {
  const backups = path.join(scratch, 'backups');
  beforeAll(() => fs.mkdirSync(backups));

  /** The default project's key is answered (not 401) by a server on `env`. */
  async function servesTheProject(env: Record<string, string>) {
    const server = await startServer(env);
    try {
      const answer = await send(server.port, 'GET', `/session/${randomUUID()}`, { 'x-api-key': credentials.api_key });
      expect(answer.body).toEqual({ statusCode: 400, message: 'Session ID not found' });
    } finally {
      await stop(server);
    }
  }

  itOnSqlite(
    'SQLite: when the backup is taken while the server runs and restored into an empty DATA_DIR, then a server on it serves the project',
    async () => {
      await bash(
        substitute(example('docs/deploy.md', 'backup'), { '/backups/': `${backups}/` }),
        PACKAGE_ROOT,
        main.env,
      );
      const [archive] = fs.readdirSync(backups);
      expect(archive).toMatch(/^trustgate-\d{4}-\d\d-\d\d\.tgz$/);
      const restored = path.join(scratch, 'restored');
      const script = substitute(example('docs/deploy.md', 'restore'), {
        '/srv/trustgate/data': restored,
        '/backups/trustgate-2026-11-24.tgz': path.join(backups, archive!),
      });
      await bash(script, PACKAGE_ROOT, main.env);
      await servesTheProject({ ...main.env, DATA_DIR: restored });
    },
    SLOW,
  );

  itOnPostgres(
    'PostgreSQL: when a server is started as the page writes it, then it serves the project from the database',
    async () => {
      const written = substitute(example('docs/deploy.md', 'postgres-start'), {
        '<your key>': main.env.TRUSTGATE_SECRET_KEY!,
        'postgres://trustgate:secret@db.internal:5432/trustgate': main.env.DATABASE_URL!,
      });
      const { starts } = npmStarts(written);
      expect(Object.keys(starts[0] ?? {}).sort()).toEqual(['DATABASE_URL', 'TRUSTGATE_SECRET_KEY']);
      await servesTheProject({ ...main.env, ...starts[0] });
    },
    SLOW,
  );

  itOnPostgres(
    'PostgreSQL: when dumped and backed up while the server runs, then restored into a new database and an empty DATA_DIR, a server on them serves the project',
    async () => {
      const url = new URL(main.env.DATABASE_URL!);
      const restoredDb = `trustgate_restored_${randomBytes(4).toString('hex')}`;
      const restoredDir = path.join(scratch, 'restored-pg');
      const script = substitute(example('docs/deploy.md', 'postgres-backup'), {
        '/backups/': `${backups}/`,
        // The reader's date of the files made above.
        'trustgate-2026-11-24': 'trustgate-$(date +%F)',
        'postgres://trustgate:secret@db.internal:5432/': `postgres://${url.username}@${url.host}/`,
        trustgate_restored: restoredDb,
      });
      // createdb reaches the server as the reader's shell is set up to: the PG* variables.
      const shell = {
        ...main.env,
        PGHOST: url.hostname,
        PGPORT: url.port,
        PGUSER: url.username,
        DATA_DIR: restoredDir,
      };
      try {
        await bash(script, PACKAGE_ROOT, shell);
        const restoredUrl = new URL(url);
        restoredUrl.pathname = `/${restoredDb}`;
        await servesTheProject({ ...main.env, DATA_DIR: restoredDir, DATABASE_URL: restoredUrl.toString() });
      } finally {
        await bash(`dropdb --if-exists --force ${restoredDb}`, PACKAGE_ROOT, shell);
      }
    },
    SLOW,
  );
});
