/**
 * The compiled server and CLI as real OS processes. The sources under test are compiled once
 * per run into a folder named for their content under the package root (not dist/, which a
 * test may be building at the same moment), shared by every test file and Jest worker: compiling
 * took a test file a good part of its time. Servers are started with an environment of the
 * test's choosing and their JSON log lines are collected.
 */
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { promisify } from 'node:util';
import { PACKAGE_ROOT } from '../../src/spec';
import type { TestDb } from './db';

const BUILD_ROOT = path.join(PACKAGE_ROOT, '.test-build');
let built: string | undefined;

/** What the compiled output depends on, hashed: the sources, the compiler's settings and version. */
function sourcesHash(): string {
  const hash = createHash('sha256');
  const add = (file: string) => hash.update(path.relative(PACKAGE_ROOT, file)).update(fs.readFileSync(file));
  const walk = (folder: string) => {
    for (const entry of fs.readdirSync(folder, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const file = path.join(folder, entry.name);
      if (entry.isDirectory()) walk(file);
      else add(file);
    }
  };
  walk(path.join(PACKAGE_ROOT, 'src'));
  walk(path.join(PACKAGE_ROOT, 'generated'));
  for (const file of ['tsconfig.json', 'tsconfig.build.json', 'node_modules/typescript/package.json'])
    add(path.join(PACKAGE_ROOT, file));
  return hash.digest('hex').slice(0, 16);
}

/**
 * Compiles src/ once per content of the sources; returns the folder that holds src/main.js and
 * src/cli/main.js. A worker compiles into a folder of its own and renames it into place, so a
 * folder in place is always whole; two workers that start together may both compile, and the
 * second's is dropped. Builds of other sources are removed when a new one is in place.
 */
export function compileSources(): string {
  if (built) return built;
  const key = sourcesHash();
  const target = path.join(BUILD_ROOT, key);
  if (!fs.existsSync(target)) {
    const outDir = path.join(BUILD_ROOT, `${key}-making-${process.pid}-${randomBytes(4).toString('hex')}`);
    execFileSync(
      process.execPath,
      [
        path.join(PACKAGE_ROOT, 'node_modules', 'typescript', 'bin', 'tsc'),
        '-p',
        'tsconfig.build.json',
        '--outDir',
        outDir,
        '--declaration',
        'false',
        '--sourceMap',
        'false',
      ],
      { cwd: PACKAGE_ROOT, stdio: 'pipe' },
    );
    try {
      fs.renameSync(outDir, target);
    } catch {
      fs.rmSync(outDir, { recursive: true, force: true });
    }
    for (const other of fs.readdirSync(BUILD_ROOT))
      if (!other.startsWith(key)) fs.rmSync(path.join(BUILD_ROOT, other), { recursive: true, force: true });
  }
  built = target;
  return target;
}

/** What a server or the CLI needs to reach the test's database, with a data folder for the rest. */
export function databaseEnv(testDb: TestDb, dataDir: string, secretKey: Buffer): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    TRUSTGATE_SECRET_KEY: secretKey.toString('base64'),
    // SQLite: the server opens DATA_DIR/trustgate.sqlite, which is the test's own file.
    DATA_DIR: testDb.sqliteFile ? path.dirname(testDb.sqliteFile) : dataDir,
    ...(testDb.url ? { DATABASE_URL: testDb.url } : {}),
  };
}

export interface ServerProcess {
  child: ChildProcess;
  /** Every JSON log line so far, parsed. */
  lines: Record<string, unknown>[];
  /** Everything written to stdout. */
  stdout(): string;
  /** Everything written to stderr. */
  stderr(): string;
  port: number;
  /** Resolves with the exit code (or the signal's name). */
  exited: Promise<number | string>;
}

const running = new Set<ChildProcess>();

/** Kills (SIGKILL) whatever a test left running; for afterAll. */
export function killAll(): void {
  for (const child of running) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

export async function until(ok: () => boolean | Promise<boolean>, what: string, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * Starts `node <compiled>/src/main.js` on a free loopback port and waits until `listeners`
 * processes log `listening` (the workers of a cluster share one port).
 */
export async function startServer(env: NodeJS.ProcessEnv, listeners = 1): Promise<ServerProcess> {
  const main = path.join(compileSources(), 'src', 'main.js');
  const child = spawn(process.execPath, [main], {
    env: { PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  const lines: Record<string, unknown>[] = [];
  let stdout = '';
  let stderr = '';
  let partial = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
    const parts = (partial + chunk.toString('utf8')).split('\n');
    partial = parts.pop() ?? '';
    for (const line of parts) if (line.startsWith('{')) lines.push(JSON.parse(line) as Record<string, unknown>);
  });
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)),
  );
  let ended = false;
  void exited.then(() => (ended = true));
  const listening = () => lines.filter((l) => l.msg === 'listening');
  // A wait, not a timing: a cluster's primary migrates before its workers start, and on a CI
  // machine busy with other suites that took over 30 s.
  await until(
    () => {
      if (ended) throw new Error(`the server exited before listening: ${stderr}${stdout}`.slice(0, 2000));
      return listening().length >= listeners;
    },
    'the server to listen',
    90_000,
  );
  // At least one, as awaited.
  return { child, lines, stdout: () => stdout, stderr: () => stderr, port: Number(listening()[0]!.port), exited };
}

/**
 * Runs the compiled CLI (`trustgate …`) as a process of its own: the one compileSources built,
 * or the one in `compiled` (a folder holding src/cli/main.js), in `cwd` (this process's folder unless given).
 */
export async function runCli(
  args: string[],
  env: NodeJS.ProcessEnv,
  options: { cwd?: string; compiled?: string } = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const { exited, stdout, stderr } = spawnCli(args, env, options);
  const { code } = await exited;
  return { code: code ?? -1, stdout: stdout(), stderr: stderr() };
}

/** runCli's process, for a test that signals it while it runs: its exit code, or the signal that ended it. */
export function spawnCli(
  args: string[],
  env: NodeJS.ProcessEnv,
  options: { cwd?: string; compiled?: string } = {},
): {
  child: ChildProcess;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stdout(): string;
  stderr(): string;
} {
  const entry = path.join(options.compiled ?? compileSources(), 'src', 'cli', 'main.js');
  const script = `require(${JSON.stringify(entry)}).cli(process.argv.slice(1)).then((code) => process.exit(code))`;
  const child = spawn(process.execPath, ['-e', script, ...args], {
    cwd: options.cwd,
    env: { LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, exited, stdout: () => stdout, stderr: () => stderr };
}

/**
 * Runs a shell example of the README or a docs page with `bash -euo pipefail`, as a reader's shell
 * would: `npx trustgate` (and `trustgate`, as a reader with the package's bin linked types it) is
 * the compiled CLI, `npx TOOL` a tool of `cwd`'s node_modules/.bin; the environment is this
 * process's without npm's own variables, with `env`'s.
 */
export async function bash(
  code: string,
  cwd: string,
  env: Record<string, string>,
  options: { input?: string } = {},
): Promise<{ stdout: string; stderr: string }> {
  const cli = path.join(compileSources(), 'src', 'cli', 'main.js');
  const shim = `trustgate() {
  node -e 'require(process.argv[1]).cli(process.argv.slice(2)).then((c) => process.exit(c))' ${JSON.stringify(cli)} "$@"
}
npx() {
  if [ "$1" = trustgate ]; then shift; trustgate "$@"
  elif [ -x "node_modules/.bin/$1" ]; then local bin="$1"; shift; "node_modules/.bin/$bin" "$@"
  else echo "npx $1: not installed here" >&2; return 127; fi
}
set -euo pipefail
`;
  const shellEnv = {
    ...Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.toLowerCase().startsWith('npm_'))),
    ...env,
  };
  const child = promisify(execFile)('bash', ['-c', shim + code], { cwd, env: shellEnv, maxBuffer: 16 << 20 });
  if (options.input !== undefined) child.child.stdin!.end(options.input);
  else child.child.stdin!.end();
  return child;
}

export interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: unknown;
}

/** One request on a connection of its own (so that a cluster may hand it to any worker). */
export function send(
  port: number,
  method: string,
  urlPath: string,
  headers: Record<string, string> = {},
  body?: unknown,
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path: urlPath,
        agent: false,
        headers: { ...headers, ...(payload ? { 'content-type': 'application/json' } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: text ? (JSON.parse(text) as unknown) : undefined,
          });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}
