/**
 * The npm packages as a customer gets them: `npm pack` makes the tarballs of @trustgate/client and
 * @trustgate/web, each is installed (from the local npm cache, --offline) into a fresh folder
 * outside the repository, a consumer is type-checked there with skipLibCheck off under nodenext,
 * node16, bundler and node10 resolution (the repository's TypeScript, the consumer's own
 * node_modules), and the installed client runs for real, through require() and import, against a
 * running Trustgate.
 */
import fs from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import * as esbuild from 'esbuild';
import type { Browser } from 'playwright-core';
import request from 'supertest';
import type { Session, WebhookEnvelope } from '../../src/api-types';
import { webhookHeaders } from '../../src/webhooks/signature';
import { makeTestContext, type TestContext } from '../helpers/app';
import { launchChromium, listen, type Listening } from '../helpers/browser';
import { cleanEnv, installPacked, packWorkspaces, run, type Packed } from '../helpers/packages';
import { storeSession } from '../helpers/sessions';
import { example } from '../helpers/spec';

const ROOT = path.resolve(__dirname, '..', '..');
const CONSUMERS = path.join(__dirname, 'consumers');
const TSC = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const SLOW = 180_000;

let tmp: string;
let packed: Map<string, Packed>;

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'trustgate-packages-'));
  packed = await packWorkspaces(['packages/client', 'packages/web'], tmp);
}, SLOW);

afterAll(() => {
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

/** A fresh folder outside the repository with the package's tarball installed, offline. */
const install = (name: string): Promise<string> => installPacked(tmp, packed, name);

const RESOLUTIONS = {
  nodenext: { module: 'nodenext', moduleResolution: 'nodenext', files: ['check.mts', 'check.cts'] },
  node16: { module: 'node16', moduleResolution: 'node16', files: ['check.mts', 'check.cts'] },
  bundler: { module: 'esnext', moduleResolution: 'bundler', files: ['check.ts'] },
  node10: { module: 'commonjs', moduleResolution: 'node10', files: ['check.ts'] },
} as const;

/**
 * Type-checks `source` in `dir` (as check.ts, .mts and .cts) under one resolution with
 * skipLibCheck off; the diagnostics, one per line as `file(line,col): error TSnnnn: …`.
 */
async function typeCheck(
  dir: string,
  source: string,
  resolution: keyof typeof RESOLUTIONS,
  environment: { lib: string[]; types: string[] },
): Promise<{ code: number; diagnostics: string[] }> {
  for (const file of ['check.ts', 'check.mts', 'check.cts']) fs.writeFileSync(path.join(dir, file), source);
  const { files, ...modules } = RESOLUTIONS[resolution];
  const tsconfig = path.join(dir, `tsconfig.${resolution}.json`);
  fs.writeFileSync(
    tsconfig,
    JSON.stringify({
      compilerOptions: {
        ...modules,
        target: 'ES2022',
        strict: true,
        skipLibCheck: false,
        noEmit: true,
        lib: environment.lib,
        types: environment.types,
        // @types/node comes from the repository (a Node backend has it); the package and its
        // dependencies come from the consumer's own node_modules.
        typeRoots: [path.join(ROOT, 'node_modules', '@types')],
      },
      files,
    }),
  );
  try {
    await run(process.execPath, [TSC, '-p', tsconfig, '--pretty', 'false'], { cwd: dir });
    return { code: 0, diagnostics: [] };
  } catch (err) {
    const { code, stdout } = err as { code: number; stdout: string };
    return { code, diagnostics: stdout.split('\n').filter((line) => / error TS\d+/.test(line)) };
  }
}

const EXPECT_ERROR = /^(\s*)\/\/ @ts-expect-error/;

/**
 * The type-checks are the packages' types against TypeScript, whatever database the server
 * runs on: they run on the SQLite run only, where the whole of this file runs (on PostgreSQL
 * they were a minute of the run, spent again for nothing).
 */
const typeChecks = process.env.DATABASE_URL ? it.skip : it;

/** The lines (1-based) that follow a `// @ts-expect-error` line: the deliberately wrong ones. */
const wrongLines = (source: string): number[] =>
  source.split('\n').flatMap((line, i) => (EXPECT_ERROR.test(line) ? [i + 2] : []));

const PACKAGES = [
  { name: '@trustgate/client', consumer: 'client.ts', environment: { lib: ['ES2022'], types: ['node'] } },
  { name: '@trustgate/web', consumer: 'web.ts', environment: { lib: ['ES2022', 'DOM'], types: [] as string[] } },
];

describe.each(PACKAGES)('$name from its tarball', ({ name, consumer, environment }) => {
  let dir: string;
  const source = fs.readFileSync(path.join(CONSUMERS, consumer), 'utf8');

  beforeAll(async () => {
    dir = await install(name);
  }, SLOW);

  it('when packed, then the tarball holds the built package and nothing of the server', () => {
    const files = packed
      .get(name)!
      .files.map((f) => f.path)
      .sort();
    expect(files).toContain('package.json');
    expect(files).toContain('dist/esm/index.js');
    expect(files).toContain('dist/cjs/index.js');
    expect(files).toContain('dist/esm/index.d.ts');
    expect(files).toContain('dist/esm/generated/openapi.d.ts');
    expect(files.filter((f) => !f.startsWith('dist/'))).toEqual(['README.md', 'package.json']);
  });

  it('when installed, then its dependencies are its own (no server package)', () => {
    const installed = JSON.parse(fs.readFileSync(path.join(dir, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, unknown>;
    };
    const names = Object.keys(installed.packages)
      .filter((p) => p.startsWith('node_modules/'))
      .map((p) => p.slice('node_modules/'.length))
      .sort();
    expect(names).toEqual(
      name === '@trustgate/client'
        ? ['@trustgate/client', 'openapi-fetch', 'openapi-typescript-helpers']
        : ['@trustgate/web'],
    );
  });

  typeChecks.each(Object.keys(RESOLUTIONS) as (keyof typeof RESOLUTIONS)[])(
    'when a consumer is type-checked under %s resolution, then correct code compiles and every wrong line fails',
    async (resolution) => {
      const { code, diagnostics } = await typeCheck(dir, source, resolution, environment);
      expect(diagnostics).toEqual([]);
      expect(code).toBe(0);
    },
    SLOW,
  );

  typeChecks(
    'when the @ts-expect-error markers are removed, then the compiler reports each wrong line and no other',
    async () => {
      const unmarked = source
        .split('\n')
        .map((line) => line.replace(EXPECT_ERROR, '$1// expected error:'))
        .join('\n');
      const { code, diagnostics } = await typeCheck(dir, unmarked, 'nodenext', environment);
      expect(code).not.toBe(0);
      const lines = new Set(diagnostics.map((d) => Number(/^check\.[cm]ts\((\d+),/.exec(d)?.[1])));
      expect([...lines].sort((a, b) => a - b)).toEqual(wrongLines(source));
    },
    SLOW,
  );
});

describe('the installed @trustgate/client against a running Trustgate', () => {
  let ctx: TestContext;
  let trustgate: Listening;
  let dir: string;

  beforeAll(async () => {
    dir = await install('@trustgate/client');
    for (const file of ['call.cjs', 'run-client.cjs', 'run-client.mjs'])
      fs.copyFileSync(path.join(CONSUMERS, file), path.join(dir, file));
    ctx = await makeTestContext();
    trustgate = await listen(ctx.app);
  }, SLOW);

  afterAll(async () => {
    await trustgate?.close();
    await ctx?.close();
  });

  it.each(['run-client.cjs', 'run-client.mjs'])(
    'when %s calls GET /session/{session_id} and checks a signed webhook, then both succeed',
    async (script) => {
      const { id } = await storeSession(ctx.services, ctx.project.project_id);
      const envelope = await example<WebhookEnvelope>('FaceMatchCompletedError');
      const body = JSON.stringify(envelope);
      const secret = 'whsec_pack_test';
      const headers = webhookHeaders({
        secret,
        requestId: envelope.request_id,
        eventType: envelope.event_type,
        rawBody: body,
        now: new Date(),
      });
      const input = {
        baseUrl: trustgate.origin,
        apiKey: ctx.project.api_key,
        sessionId: id,
        webhook: { body, headers, secret },
      };
      const { stdout } = await run(process.execPath, [script], {
        cwd: dir,
        env: cleanEnv({ TG_INPUT: JSON.stringify(input) }),
      });
      expect(JSON.parse(stdout)).toEqual({ status: 200, sessionId: id, eventId: envelope.request_id });
    },
    SLOW,
  );
});

/** What page.js puts on the customer's window. */
type CustomerWindow = { signUp(): Promise<string>; loadAgain(project: string): true | string };

describe('the installed @trustgate/web in a real browser', () => {
  let ctx: TestContext;
  let trustgate: Listening;
  let customer: Listening;
  let browser: Browser;

  beforeAll(async () => {
    const dir = await install('@trustgate/web');
    fs.copyFileSync(path.join(CONSUMERS, 'page.js'), path.join(dir, 'page.js'));
    // The customer's bundler resolves @trustgate/web from the consumer's node_modules.
    const bundled = await esbuild.build({
      entryPoints: [path.join(dir, 'page.js')],
      absWorkingDir: dir,
      bundle: true,
      format: 'iife',
      write: false,
      logLevel: 'silent',
    });
    const script = bundled.outputFiles[0]!.text;
    ctx = await makeTestContext();
    trustgate = await listen(ctx.app);
    const html = `<!doctype html><html data-project-id="${ctx.project.project_id}" data-endpoint="${trustgate.origin}">
<head><meta charset="utf-8"><title>Customer sign-up</title></head><body><script>${script}</script></body></html>`;
    customer = await listen((req: IncomingMessage, res: ServerResponse) => {
      res.writeHead(req.url === '/' ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' }).end(html);
    });
    browser = await launchChromium();
  }, SLOW);

  afterAll(async () => {
    await browser?.close();
    await customer?.close();
    await trustgate?.close();
    await ctx?.close();
  });

  it(
    'when the page calls load() and session(), then Trustgate stores the session, and load() again gives the same SDK',
    async () => {
      const context = await browser.newContext();
      try {
        const page = await context.newPage();
        await page.goto(customer.origin + '/');
        const sessionId = await page.evaluate(() => (window as unknown as CustomerWindow).signUp());
        const response = await request(ctx.app).get(`/session/${sessionId}`).set('x-api-key', ctx.project.api_key);
        expect(response.status).toBe(200);
        const stored = response.body as Session;
        expect(stored.session_id).toBe(sessionId);
        expect(stored.project_id).toBe(ctx.project.project_id);
        expect(stored.source).toBe('web');
      } finally {
        await context.close();
      }
    },
    SLOW,
  );
});
