/**
 * The README's quickstart, step by step, and the examples of docs/api.md and docs/webhooks.md,
 * taken from the pages (test/readme/examples.ts) and run on this machine, end to end, through real
 * processes: the compiled server on a fresh DATA_DIR, `bash` for the shell examples, the client
 * package installed from its tarball in a folder outside the repository (a CommonJS project, as
 * `npm init` makes), the client example saved under the name the README gives it and compiled
 * there with the command the README gives, the receivers run with `node`, and the `trustgate` CLI
 * as processes of their own on the same DATA_DIR.
 *
 * What differs from a reader's machine, and why:
 * - Ports: the README's 3000 (Trustgate) and 4000 (the receiver) are replaced by free ones. The
 *   machine is shared and tests run in parallel, so either may be taken at any moment, and a
 *   check that a port is free before binding it would race.
 * - `npm start` and `npx trustgate` run the server and CLI compiled by compileSources() (the same
 *   entry points, `dist/src/main.js` and `dist/src/cli/main.js`, built into a folder of this test's
 *   own): building dist/ here would race with other test files packing the workspaces, and
 *   `npm install` needs the registry.
 * - The placeholders a reader fills in (`PROJECT_ID`, `whsec_…`, `tg_…`) get the values of the
 *   default project that the first start created.
 * - `npm install --save-dev typescript @types/node` needs the registry: the consumer's
 *   node_modules get the repository's copies of both instead (what that install would put there).
 * - ANALYSIS_ENGINE=off: no example needs the face and document models, which take 350 MB and
 *   many seconds of two cores to load.
 * The examples are SQLite's (the quick start's embedded database): skipped on the PostgreSQL run.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { EventType, Session } from '../../src/api-types';
import { PACKAGE_ROOT } from '../../src/spec';
import { webhookHeaders } from '../../src/webhooks/signature';
import { personSession } from '../helpers/evaluation';
import { cleanEnv, installPacked, packWorkspaces } from '../helpers/packages';
import { bash, compileSources, killAll, send, startServer, until, type ServerProcess } from '../helpers/processes';
import { npmStarts, readmeExamples, substitute, webhookExamples, type Example } from './examples';

const SLOW = 180_000;
const README = fs.readFileSync(path.join(PACKAGE_ROOT, 'README.md'), 'utf8');
const PAGES = ['README.md', 'docs/api.md', 'docs/ip-data.md', 'docs/webhooks.md'] as const;
const examplesOf = new Map(
  PAGES.map((page) => [page, readmeExamples(fs.readFileSync(path.join(PACKAGE_ROOT, page), 'utf8'), page)]),
);
const describeOnSqlite = process.env.DATABASE_URL ? describe.skip : describe;

function example(name: string, page: (typeof PAGES)[number] = 'README.md'): Example {
  const found = examplesOf.get(page)!.get(name);
  if (!found) throw new Error(`${page} has no example marked <!-- example: ${name} -->`);
  return found;
}

/** The shape of a JSON value: its members' names and types, arrays by their first item. */
function shapeOf(value: unknown): unknown {
  if (Array.isArray(value)) return value.length === 0 ? [] : [shapeOf(value[0])];
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shapeOf(v)]));
  return value === null ? 'null' : typeof value;
}

/** A loopback port nobody listens on now. */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

interface Receiver {
  port: number;
  child: ChildProcess;
  output(): string;
}

interface Credentials {
  project_id: string;
  api_key: string;
  webhook_secret: string;
}

describeOnSqlite("the README's examples, run as written", () => {
  let tmp: string;
  let dataDir: string;
  let consumer: string;
  let server: ServerProcess;
  let credentials: Credentials;
  const receivers: ChildProcess[] = [];

  /**
   * A receiver of the pages (the README's, or docs/webhooks.md's fuller one), saved as receiver.mjs
   * in `dir` (in the consumer's project) listening on `port` for 4000, started by `start` (a README
   * command that runs it); what it prints.
   */
  async function startReceiver(
    dir: string,
    start: string,
    port: number,
    source = example('receiver'),
  ): Promise<Receiver> {
    expect(source.lang).toBe('js');
    expect(start).toContain('node receiver.mjs');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(
      path.join(dir, 'receiver.mjs'),
      substitute(source.code, { ".listen(4000, '127.0.0.1')": `.listen(${port}, '127.0.0.1')` }),
    );
    let out = '';
    const child = spawn('bash', ['-c', start], {
      cwd: dir,
      env: cleanEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true, // its own process group, killed as one in afterAll
    });
    receivers.push(child);
    child.stdout!.on('data', (c: Buffer) => (out += c.toString('utf8')));
    child.stderr!.on('data', (c: Buffer) => (out += c.toString('utf8')));
    await until(async () => {
      if (child.exitCode !== null) throw new Error(`the receiver exited: ${out}`);
      return accepts(port);
    }, 'the receiver to listen');
    return { port, child, output: () => out };
  }

  /** Stops a receiver started by startReceiver (its whole process group). */
  async function stopReceiver({ child }: Receiver) {
    // (Killed by a signal, a process has a signalCode and no exitCode.)
    if (!child.pid || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    process.kill(-child.pid, 'SIGTERM');
    await exited;
  }

  /** The environment the README's `npm start` lines get, with their own assignments. */
  const serverEnv = (assignments: Record<string, string>) => ({
    PATH: process.env.PATH,
    DATA_DIR: dataDir,
    ANALYSIS_ENGINE: 'off',
    ...assignments,
  });

  beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'trustgate-readme-'));
    dataDir = path.join(tmp, 'data');
    const packing = packWorkspaces(['packages/client'], tmp);
    compileSources(); // synchronous; npm packs meanwhile
    consumer = await installPacked(tmp, await packing, '@trustgate/client');
    const { starts } = npmStarts(example('quickstart').code);
    expect(starts).toEqual([{}]);
    server = await startServer(serverEnv(starts[0]!));
  }, SLOW);

  afterAll(async () => {
    for (const child of receivers) await stopReceiver({ child, port: 0, output: () => '' });
    if (server && server.child.exitCode === null) {
      server.child.kill('SIGTERM');
      await server.exited;
    }
    killAll();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('when the pages are read, then they mark exactly the examples this file and the files named run', () => {
    expect(Object.fromEntries([...examplesOf].map(([page, marked]) => [page, [...marked.keys()].sort()]))).toEqual({
      'README.md': [
        'client',
        'client-run',
        'console-user',
        'ingest',
        'quickstart',
        'receiver',
        'receiver-run',
        'response',
        'sdk-tag', // test/e2e/readme-sdk.test.ts
        'test-project',
        'webhook-test',
      ],
      'docs/api.md': ['curl', 'fail-open', 'read-session', 'rotate-key'], // the TypeScript ones: test/docs/api.test.ts
      'docs/ip-data.md': ['iplist', 'iplist-sync'], // iplist-sync: test/docs/cli-pages.test.ts
      'docs/webhooks.md': ['webhook-receiver'],
    });
  });

  it('quick start: when `npm start` first runs without a terminal, then the default project is in DATA_DIR/default-project.json and only its path is logged', () => {
    // package.json's start script is what startServer runs, compiled elsewhere.
    const scripts = (
      JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as {
        scripts: Record<string, string>;
      }
    ).scripts;
    expect(scripts.start).toBe('node dist/src/main.js');
    const file = path.join(dataDir, 'default-project.json');
    credentials = JSON.parse(fs.readFileSync(file, 'utf8')) as Credentials;
    expect(Object.keys(credentials).sort()).toEqual(['api_key', 'project_id', 'webhook_secret']);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(server.lines.some((l) => l.file === file && l.projectId === credentials.project_id)).toBe(true);
    expect(server.stdout()).not.toContain(credentials.api_key);
  });

  it("docs/api.md's curl: when run with TRUSTGATE_API_KEY set, then it prints what the page says it prints", async () => {
    const { code } = example('curl', 'docs/api.md');
    const expected = /^# (\{.*\})/m.exec(code)?.[1];
    expect(expected).toBeDefined();
    const script = substitute(code.replace(/tg_…/g, credentials.api_key), {
      '127.0.0.1:3000': `127.0.0.1:${server.port}`,
    });
    const { stdout } = await bash(script, tmp, { TRUSTGATE_API_KEY: credentials.api_key });
    expect(JSON.parse(stdout)).toEqual(JSON.parse(expected!));
  });

  it(
    'quickstart, steps 2 to 4: when a session is posted as the README says and the client example is saved under its name in a CommonJS project, compiled and run with its commands, then it prints an authenticate answer of the shape the README shows',
    async () => {
      // The README names the file and says why: an ES module, in a project `npm init` made CommonJS.
      const file = /save it as\s+\*\*`([\w.-]+)`\*\*/.exec(README)?.[1];
      expect(file).toBe('authenticate.mts');
      expect(README).toContain('"type": "module"');
      const manifest = JSON.parse(fs.readFileSync(path.join(consumer, 'package.json'), 'utf8')) as { type?: string };
      expect(manifest.type).toBeUndefined();
      const { code, lang } = example('client');
      expect(lang).toBe('ts');
      fs.writeFileSync(path.join(consumer, file!), substitute(code, { '127.0.0.1:3000': `127.0.0.1:${server.port}` }));
      // What `npm install --save-dev typescript @types/node` would put in node_modules, from the repository.
      const modules = path.join(consumer, 'node_modules');
      fs.mkdirSync(path.join(modules, '@types'), { recursive: true });
      fs.mkdirSync(path.join(modules, '.bin'), { recursive: true });
      fs.symlinkSync(path.join(PACKAGE_ROOT, 'node_modules', 'typescript'), path.join(modules, 'typescript'));
      fs.symlinkSync(path.join(PACKAGE_ROOT, 'node_modules', '@types', 'node'), path.join(modules, '@types', 'node'));
      fs.symlinkSync('../typescript/bin/tsc', path.join(modules, '.bin', 'tsc'));

      const ingest = example('ingest').code;
      const script = [
        substitute(ingest, { PROJECT_ID: credentials.project_id, '127.0.0.1:3000': `127.0.0.1:${server.port}` }),
        'echo', // curl prints the answer without a newline
        substitute(example('client-run').code, {
          'npm install --save-dev typescript @types/node': '# installed above',
          'tg_…': credentials.api_key,
        }),
      ].join('\n');
      const { stdout, stderr } = await bash(script, consumer, {});
      expect(stderr).toBe('');
      const [posted, ...printed] = stdout.split('\n');
      const sessionId = (JSON.parse(posted!) as { session_id: string }).session_id;
      expect(posted).toBe(/^# (\{.*\})$/m.exec(ingest)![1]!.replace('…', sessionId));

      const answer = JSON.parse(printed.join('\n')) as { session_id: string; decision: string };
      expect(answer.session_id).toBe(sessionId);
      const { code: shownCode, lang: shownLang } = example('response');
      expect(shownLang).toBe('json');
      const shown = JSON.parse(shownCode) as { decision: string };
      expect(answer.decision).toBe(shown.decision);
      // The README's body is the real one trimmed: every member it shows is there, of the same type.
      expect(shapeOf(answer)).toMatchObject(shapeOf(shown) as object);
    },
    SLOW,
  );

  /** The README's receiver with the live project's secret, started by the webhook-test test. */
  let live: Receiver;

  it(
    'webhook receiver: when run with node and the project pointed at it, then `trustgate webhooks test` gets HTTP 200 and the receiver logs the verified event',
    async () => {
      const start = substitute(example('receiver-run').code, { 'whsec_…': credentials.webhook_secret });
      live = await startReceiver(consumer, start, await freePort());

      const { starts, rest } = npmStarts(example('webhook-test').code);
      const script = substitute(rest, {
        PROJECT_ID: credentials.project_id,
        '127.0.0.1:4000': `127.0.0.1:${live.port}`,
      });
      const { stdout } = await bash(script, PACKAGE_ROOT, { DATA_DIR: dataDir });
      expect(stdout).toContain(`answer: HTTP 200`);
      await until(() => /^webhook\.test \S/m.test(live.output()), 'the receiver to log the test event');

      // The server restarted as the README says, on the same data: the project is kept, not created again.
      expect(starts).toEqual([{ WEBHOOK_ALLOW_PRIVATE: '1' }]);
      server.child.kill('SIGTERM');
      await server.exited;
      fs.rmSync(path.join(dataDir, 'default-project.json'));
      server = await startServer(serverEnv(starts[0]!));
      expect(fs.existsSync(path.join(dataDir, 'default-project.json'))).toBe(false);
    },
    SLOW,
  );

  it("docs/webhooks.md's receiver: when sent each example of every event type webhooks.yaml declares, signed, then it acknowledges and handles each and keeps running", async () => {
    const full = await startReceiver(
      path.join(consumer, 'full'),
      `TRUSTGATE_WEBHOOK_SECRETS=${credentials.webhook_secret} node receiver.mjs`,
      await freePort(),
      example('webhook-receiver', 'docs/webhooks.md'),
    );
    const examples = webhookExamples();
    expect(new Set(examples.map((e) => e.eventType)).size).toBeGreaterThanOrEqual(6);
    for (const { eventType, body } of examples) {
      const rawBody = JSON.stringify({ ...body, request_id: randomUUID() });
      const headers = webhookHeaders({
        secret: credentials.webhook_secret,
        requestId: randomUUID(),
        eventType: eventType as EventType,
        rawBody,
        now: new Date(),
      });
      const answer = await fetch(`http://127.0.0.1:${full.port}/webhooks/trustgate`, {
        method: 'POST',
        headers,
        body: rawBody,
      });
      expect({ eventType, status: answer.status }).toEqual({ eventType, status: 200 });
    }
    for (const { eventType } of examples) {
      const logged = eventType === 'webhook.test' ? 'test event' : eventType;
      await until(() => full.output().includes(`${logged} `), `the receiver to handle ${eventType}`);
    }
    expect(full.output()).not.toMatch(/could not handle|not handled/);
    expect(full.child.exitCode).toBeNull();
    await stopReceiver(full);
  });

  it(
    "test project: when created as the README says and its verification ends, then the README's receiver, given both secrets, verifies its webhook",
    async () => {
      const [create, restart] = example('test-project')
        .code.trim()
        .split('\n')
        .map((line) => line.trim());
      const created = await bash(substitute(create!, { '127.0.0.1:4000': `127.0.0.1:${live.port}` }), PACKAGE_ROOT, {
        DATA_DIR: dataDir,
      });
      const shown = (name: string) => new RegExp(`^${name}:\\s+(\\S+)`, 'm').exec(created.stdout)?.[1] ?? '';
      const project = {
        project_id: shown('project_id'),
        api_key: shown('api_key'),
        webhook_secret: shown('webhook_secret'),
      };
      expect(project.api_key).toMatch(/^tg_test_/);

      // The server runs as the webhook-test test restarted it: WEBHOOK_ALLOW_PRIVATE=1.
      const session = await send(
        server.port,
        'POST',
        '/liveness/session',
        { 'x-api-key': project.api_key },
        { type: 'face-match', account_id: 'test_verification_liveness_check_failed' },
      );
      expect(session.status).toBe(200);
      const { session_id, url } = session.body as { session_id: string; url: string };
      const token = new URL(url).searchParams.get('token')!;
      const completed = await send(
        server.port,
        'POST',
        `/liveness/${session_id}/complete?token=${encodeURIComponent(token)}`,
      );
      expect(completed.status).toBe(200);

      // With the live secret alone, the receiver refuses it, and the delivery record says why.
      await until(async () => {
        const listed = await bash(`npx trustgate webhooks list --status pending`, PACKAGE_ROOT, { DATA_DIR: dataDir });
        return listed.stdout.includes('last error: HTTP 400  answer: {"reason":"bad_signature"}');
      }, "the refused delivery's answer in `trustgate webhooks list`");

      // Started again as the README says, with both secrets, it verifies the retry.
      await stopReceiver(live);
      const both = substitute(restart!, {
        'whsec_…,whsec_…': `${credentials.webhook_secret},${project.webhook_secret}`,
      });
      live = await startReceiver(consumer, both, live.port);
      await until(
        () => /^verification\.face-match\.completed \S/m.test(live.output()),
        'the receiver to log the verification webhook',
      );
    },
    SLOW,
  );
  it("the console: when the README's first operator is added with a password on stdin, then they sign in at /console/login", async () => {
    expect(README).toContain('<http://127.0.0.1:3000/console>');
    const password = 'correct horse battery staple';
    const { code } = example('console-user');
    const script = `printf '%s\\n' '${password}' | ${substitute(code.trim(), { PROJECT_ID: credentials.project_id })}`;
    await bash(script, PACKAGE_ROOT, { DATA_DIR: dataDir });
    const email = /--email (\S+)/.exec(code)![1]!;
    const signedIn = await send(server.port, 'POST', '/console/login', {}, { email, password });
    expect(signedIn.status).toBe(200);
    const refused = await send(server.port, 'POST', '/console/login', {}, { email, password: `${password}!` });
    expect(refused.status).toBe(401);
  });
  it("docs/ip-data.md's list commands: when run in turn, then the block is listed, then removed, and the Tor exit stays", async () => {
    const { stdout } = await bash(example('iplist', 'docs/ip-data.md').code, PACKAGE_ROOT, { DATA_DIR: dataDir });
    expect(stdout).toContain('203.0.113.0/24');
    const after = await bash('npx trustgate iplist show vpn; npx trustgate iplist show tor', PACKAGE_ROOT, {
      DATA_DIR: dataDir,
    });
    expect(after.stdout).not.toContain('203.0.113.0/24');
    expect(after.stdout).toContain('185.220.101.1');
  });

  // Last: it revokes the key the tests above use.
  it("docs/api.md's key rotation: when run, then it prints a new key that works, and the old one is refused", async () => {
    const script = substitute(example('rotate-key', 'docs/api.md').code, { PROJECT_ID: credentials.project_id });
    const { stdout } = await bash(script, PACKAGE_ROOT, { DATA_DIR: dataDir });
    expect(stdout).toContain(credentials.project_id); // project list
    const key = /^api_key:\s+(\S+)/m.exec(stdout)?.[1];
    expect(key).toMatch(/^tg_/);
    const url = `/session/${randomUUID()}`;
    await until(
      async () => (await send(server.port, 'GET', url, { 'x-api-key': credentials.api_key })).status === 401,
      'the old key to be refused',
    );
    const old = await send(server.port, 'GET', url, { 'x-api-key': credentials.api_key });
    expect(old.body).toEqual({ statusCode: 401, message: 'Invalid x-api-key' });
    const fresh = await send(server.port, 'GET', url, { 'x-api-key': key! });
    expect(fresh.body).toEqual({ statusCode: 400, message: 'Session ID not found' });
  });
});
