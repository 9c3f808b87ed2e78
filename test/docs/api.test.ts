/**
 * docs/api.md's TypeScript blocks, as a reader pastes them into a module of theirs: the module
 * gives each what the page's prose gives it (`trustgate`, made as the README's client example
 * makes it; a `sessionId`; for the sign-up, the reader's own `createAccount`), is type-checked
 * strictly against the client's sources (the types the package carries), and runs in this
 * process against the real app listening on loopback. Failing open is run with Trustgate
 * unreachable (a port nobody listens on) and slower than `timeoutMs` (a server that never
 * answers), and a Fake decision with a test project's forcing account id (docs/test-mode.md).
 * (The curl and key rotation blocks are run by test/readme/examples.test.ts.)
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import type { IngestSession } from '../../src/api-types';
import { PACKAGE_ROOT } from '../../src/spec';
import type { ProjectCredentials } from '../../src/usecases/projects';
import { makeTestContext, type TestContext } from '../helpers/app';
import { listen, type Listening } from '../helpers/browser';
import { bind, browserHeaders, issueChallenge, personSession } from '../helpers/evaluation';
import { readmeExamples } from '../readme/examples';

const DOC = 'docs/api.md';
const examples = readmeExamples(fs.readFileSync(path.join(PACKAGE_ROOT, DOC), 'utf8'), DOC);
const CLIENT = path.join(PACKAGE_ROOT, 'packages', 'client', 'src', 'index');

function example(name: string): string {
  const found = examples.get(name);
  if (!found) throw new Error(`${DOC} has no example marked <!-- example: ${name} -->`);
  expect(found.lang).toBe('ts');
  return found.code;
}

const indent = (code: string) => code.replace(/^(?=.)/gm, '  ');

/** The reader's module around each block: what it is given, and what it did. */
const MODULES = {
  'read-session': (code: string) => `import { createTrustgateClient } from ${JSON.stringify(CLIENT)};

export async function run(baseUrl: string, apiKey: string, sessionId: string) {
  const trustgate = createTrustgateClient({ baseUrl, apiKey });
${indent(code)}}
`,
  'fail-open': (code: string) => `import { createTrustgateClient } from ${JSON.stringify(CLIENT)};

export async function run(baseUrl: string, apiKey: string, timeoutMs: number, user: { id: string; email: string }, sessionId: string) {
  const trustgate = createTrustgateClient({ baseUrl, apiKey, timeoutMs });
  const created: { user: { id: string; email: string }; riskChecked: boolean }[] = [];
  async function createAccount(account: { id: string; email: string }, options: { riskChecked: boolean }) {
    created.push({ user: account, riskChecked: options.riskChecked });
  }
${indent(code)}
  await signUp(user, sessionId);
  return created;
}
`,
};

let dir: string;
const modules: Record<string, string> = {};

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trustgate-api-doc-'));
  for (const [name, wrap] of Object.entries(MODULES)) {
    modules[name] = path.join(dir, `${name}.ts`);
    fs.writeFileSync(modules[name], wrap(example(name)));
  }
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

it("when the reader's modules are type-checked strictly, then they compile without an error", () => {
  const program = ts.createProgram(Object.values(modules), {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    types: ['node'],
    typeRoots: [path.join(PACKAGE_ROOT, 'node_modules', '@types')],
    skipLibCheck: true,
  });
  const errors = ts
    .getPreEmitDiagnostics(program)
    .map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
  expect(errors).toEqual([]);
}, 60_000);

describe('against the app', () => {
  let ctx: TestContext;
  let server: Listening;
  let logged: unknown[][];
  let warned: unknown[][];
  beforeAll(async () => {
    ctx = await makeTestContext();
    server = await listen(ctx.app);
  });
  afterAll(async () => {
    await server.close();
    await ctx.close();
  });
  beforeEach(() => {
    logged = [];
    warned = [];
    jest.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void logged.push(args));
    jest.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void logged.push(args));
    jest.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => void warned.push(args));
  });
  afterEach(() => jest.restoreAllMocks());

  /**
   * A session the SDK made, in `project`, as the SDK posts it: the first post right after load,
   * bound to a challenge, with the browser's headers, then the interaction counts in an update.
   */
  async function ingested(project: ProjectCredentials = ctx.project) {
    const session = personSession();
    const send = async (body: IngestSession) => {
      const answer = await fetch(`${server.origin}/ingest/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-project-id': project.project_id, ...browserHeaders(session) },
        body: JSON.stringify(body),
      });
      expect(answer.status).toBe(200);
    };
    await send(bind({ ...session, events: {} }, await issueChallenge(ctx, project.project_id)));
    const { session_id, source, device_id, events } = session;
    await send({ session_id, source, device_id, events });
    return session.session_id;
  }

  type ReadSession = (baseUrl: string, apiKey: string, sessionId: string) => Promise<void>;
  type SignUp = (
    baseUrl: string,
    apiKey: string,
    timeoutMs: number,
    user: { id: string; email: string },
    sessionId: string,
  ) => Promise<{ user: { id: string; email: string }; riskChecked: boolean }[]>;
  const readSession = () => (require(modules['read-session']!) as { run: ReadSession }).run;
  const signUp = () => (require(modules['fail-open']!) as { run: SignUp }).run;
  const user = { id: 'user-42', email: 'ana.lima@gmail.com' };

  it('reading a session: when it exists, then its country and vpn flag are logged; when not, the error', async () => {
    const sessionId = await ingested();
    await readSession()(server.origin, ctx.project.api_key, sessionId);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toHaveLength(2);
    expect(typeof logged[0]![1]).toBe('boolean');
    await readSession()(server.origin, ctx.project.api_key, '7b1c3a9e-2f4d-4c1b-9a8e-5d6f7a8b9c0d');
    expect(logged[1]).toEqual([400, 'Session ID not found']);
  });

  it('failing open: when Trustgate answers Real, then the account is created as risk-checked', async () => {
    const created = await signUp()(server.origin, ctx.project.api_key, 5000, user, await ingested());
    expect(created).toEqual([{ user, riskChecked: true }]);
    expect(warned).toEqual([]);
  });

  it('failing open: when Trustgate answers Fake, then the sign-up is refused and no account is created', async () => {
    const project = await ctx.services.projects.create({ name: 'Shop (tests)', test: true });
    const fake = { id: 'test_fake_1', email: 'fake@example.com' };
    await expect(signUp()(server.origin, project.api_key, 5000, fake, await ingested(project))).rejects.toThrow(
      'sign-up refused',
    );
    expect(warned).toEqual([]);
  });

  it('failing open: when Trustgate answers a 4xx, then it is warned about and the account is created unchecked', async () => {
    const created = await signUp()(
      server.origin,
      ctx.project.api_key,
      5000,
      user,
      '7b1c3a9e-2f4d-4c1b-9a8e-5d6f7a8b9c0d',
    );
    expect(created).toEqual([{ user, riskChecked: false }]);
    expect(warned).toEqual([['Trustgate answered', 400, 'Session ID not found']]);
  });

  it('failing open: when Trustgate is unreachable, then the account is created unchecked', async () => {
    const closed = await listen(ctx.app);
    await closed.close(); // a port nobody listens on now
    const created = await signUp()(closed.origin, ctx.project.api_key, 5000, user, await ingested());
    expect(created).toEqual([{ user, riskChecked: false }]);
    expect(warned[0]![0]).toBe('Trustgate is slow or down');
    expect((warned[0]![1] as Error).name).toBe('TypeError'); // fetch failed (of the fetch's realm, not Jest's)
  });

  it('failing open: when Trustgate does not answer within timeoutMs, then the account is created unchecked', async () => {
    const silent = http.createServer(() => undefined); // takes the request and never answers
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    try {
      const { port } = silent.address() as AddressInfo;
      const created = await signUp()(`http://127.0.0.1:${port}`, ctx.project.api_key, 200, user, await ingested());
      expect(created).toEqual([{ user, riskChecked: false }]);
      expect(warned[0]![0]).toBe('Trustgate is slow or down');
      expect((warned[0]![1] as Error).name).toBe('TimeoutError');
    } finally {
      silent.closeAllConnections();
      await new Promise((r) => silent.close(r));
    }
  });
});
