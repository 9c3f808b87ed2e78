/**
 * The README's quick start, curl, typed-client and webhook-receiver examples, taken from README.md
 * (test/readme/examples.ts) and run on this machine, end to end, through real processes: the
 * compiled server on a fresh DATA_DIR, `bash` for the shell examples, the client package installed
 * from its tarball in a folder outside the repository, the client example compiled there with the
 * repository's TypeScript, the receiver run with `node`, and the `trustgate` CLI as processes of
 * their own on the same DATA_DIR.
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
import { cleanEnv, installPacked, packWorkspaces, run } from '../helpers/packages';
import {
  compileSources,
  killAll,
  removeCompiled,
  send,
  startServer,
  until,
  type ServerProcess,
} from '../helpers/processes';
import { npmStarts, readmeExamples, substitute, webhookExamples } from './examples';

const SLOW = 180_000;
const TSC = path.join(PACKAGE_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const examples = readmeExamples();
const describeOnSqlite = process.env.DATABASE_URL ? describe.skip : describe;

function example(name: string) {
  const found = examples.get(name);
  if (!found) throw new Error(`README.md has no example marked <!-- example: ${name} -->`);
  return found;
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

/** Runs a shell example with bash; `npx trustgate` is the compiled CLI (see the file's comment). */
async function bash(code: string, cwd: string, env: Record<string, string>) {
  const cli = path.join(compileSources(), 'src', 'cli', 'main.js');
  const shim = `npx() {
  if [ "$1" = trustgate ]; then shift; node -e 'require(process.argv[1]).cli(process.argv.slice(2)).then((c) => process.exit(c))' ${JSON.stringify(cli)} "$@"
  else echo "npx $1: not something the README's examples use" >&2; return 127; fi
}
set -euo pipefail
`;
  return run('bash', ['-c', shim + code], { cwd, env: cleanEnv(env) });
}

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
   * The README's receiver, saved as receiver.mjs in `dir` (in the consumer's project) listening on
   * `port` for 4000, started by `start` (a README command that runs it); what it prints.
   */
  async function startReceiver(dir: string, start: string, port: number): Promise<Receiver> {
    const source = example('receiver');
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
    removeCompiled();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('when the README is read, then it marks exactly the examples this file runs', () => {
    expect([...examples.keys()].sort()).toEqual([
      'client',
      'curl',
      'quickstart',
      'receiver',
      'receiver-run',
      'test-project',
      'webhook-test',
    ]);
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

  it('curl: when run with TRUSTGATE_API_KEY set, then it prints what the README says it prints', async () => {
    const { code } = example('curl');
    const expected = /^# (\{.*\})/m.exec(code)?.[1];
    expect(expected).toBeDefined();
    const script = substitute(code.replace(/tg_…/g, credentials.api_key), {
      '127.0.0.1:3000': `127.0.0.1:${server.port}`,
    });
    const { stdout } = await bash(script, tmp, { TRUSTGATE_API_KEY: credentials.api_key });
    expect(JSON.parse(stdout)).toEqual(JSON.parse(expected!));
  });

  it(
    'typed client: when compiled in a project that installed the tarball and run for a session the SDK created, then it prints the session',
    async () => {
      const { code, lang } = example('client');
      expect(lang).toBe('ts');
      fs.writeFileSync(
        path.join(consumer, 'session.mts'),
        substitute(code, { '127.0.0.1:3000': `127.0.0.1:${server.port}` }),
      );
      fs.writeFileSync(
        path.join(consumer, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: {
            module: 'nodenext',
            moduleResolution: 'nodenext',
            target: 'ES2022',
            strict: true,
            skipLibCheck: false,
            types: ['node'],
            // A Node backend has @types/node; here it comes from the repository.
            typeRoots: [path.join(PACKAGE_ROOT, 'node_modules', '@types')],
          },
          files: ['session.mts'],
        }),
      );
      await run(process.execPath, [TSC, '-p', 'tsconfig.json', '--pretty', 'false'], { cwd: consumer });

      const ingest = personSession();
      const posted = await send(
        server.port,
        'POST',
        '/ingest/session',
        { 'x-project-id': credentials.project_id },
        ingest,
      );
      expect(posted.status).toBe(200);
      const stored = await send(server.port, 'GET', `/session/${ingest.session_id}`, {
        'x-api-key': credentials.api_key,
      });
      expect(stored.status).toBe(200);
      const session = stored.body as Session;

      const { stdout, stderr } = await run(process.execPath, ['session.mjs', ingest.session_id], {
        cwd: consumer,
        env: cleanEnv({ TRUSTGATE_API_KEY: credentials.api_key }),
      });
      expect(stderr).toBe('');
      expect(stdout).toBe(`${session.location.country_code} ${session.risk_signals.vpn}\n`);
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
      expect(stdout).toContain(credentials.project_id); // project list
      expect(stdout).toContain(`answer: HTTP 200`);
      await until(() => /^test event \S/m.test(live.output()), 'the receiver to log the test event');

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

  it('webhook receiver: when sent each example of every event type webhooks.yaml declares, signed, then it acknowledges and handles each and keeps running', async () => {
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
      const answer = await fetch(`http://127.0.0.1:${live.port}/webhooks/trustgate`, {
        method: 'POST',
        headers,
        body: rawBody,
      });
      expect({ eventType, status: answer.status }).toEqual({ eventType, status: 200 });
    }
    for (const { eventType } of examples) {
      const logged = eventType === 'webhook.test' ? 'test event' : eventType;
      await until(() => live.output().includes(`${logged} `), `the receiver to handle ${eventType}`);
    }
    expect(live.output()).not.toMatch(/could not handle|not handled/);
    expect(live.child.exitCode).toBeNull();
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
        () => /^verification\.face-match\.completed liveness_check_failed \S/m.test(live.output()),
        'the receiver to log the verification webhook',
      );
    },
    SLOW,
  );
});
