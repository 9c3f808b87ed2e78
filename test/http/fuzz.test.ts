/**
 * The contract fuzzed: every operation of openapi.yaml (read when the suite starts, so a new
 * operation is covered without a line here) gets bad inputs of every kind (test/helpers/fuzz/
 * cases.ts) and valid inputs sampled from its schemas (sample.ts), over real HTTP, through the
 * server main.ts runs, the real app and a real database. For every answer:
 *
 * - no 5xx;
 * - an error's body is exactly `{statusCode, message}`, with the answer's status;
 * - the status is one the spec declares for the operation the request reached (a request whose
 *   path reaches no operation: 404 or 405);
 * - a refused request (4xx) changed nothing in the database (helpers/db-changes.ts: SQLite's
 *   data_version, PostgreSQL's WAL of this database's tables);
 * - a body the spec does not allow (Ajv, JSON Schema 2020-12) is refused;
 * - U+0000 or a lone surrogate in a declared string is a 400 naming that field.
 *
 * And every GET of the contract, sent valid requests with a read-only key, a full key and each
 * operator role's cookie (without a CSRF token, as a page of the same site could make a browser
 * send it), writes nothing, answered or refused: but for GET /liveness/session with a full key
 * (the query form, which creates a session by design) and the GETs of `WRITING_GETS`.
 *
 * Among the bad inputs (cases.ts): bodies nested 20,000 deep and members nested in themselves
 * thousands of times (a rules condition's `not`), numbers that are not finite (`1e400`, 400
 * digits) in query parameters and bodies, and crafted payloads inside base64 cursors.
 *
 * Seeded: the seed is printed, and FUZZ_SEED=<seed> repeats a run exactly. The rate limits count
 * in memory here: in the database (the default) each request, refused or not, counts itself.
 */
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { OPERATOR_ROLES } from '../../src/domain/operators';
import { createHttpServer } from '../../src/http/server';
import { mulberry32 } from '../../scripts/prng';
import type { ProjectCredentials } from '../../src/usecases/projects';
import { makeTestContext, type TestContext } from '../helpers/app';
import { makeChangeProbe, type ChangeProbe } from '../helpers/db-changes';
import { at, only } from '../helpers/defined';
import { LONDON_IP, personSession } from '../helpers/evaluation';
import { badCases, requestOf, type Baseline, type Case, type HttpRequest } from '../helpers/fuzz/cases';
import { arbitraryOf, samples, type Known } from '../helpers/fuzz/sample';
import { describeOperation, listOperations, operationAt, type Operation } from '../helpers/fuzz/schema';
import { loadSpec, validatorAt, type Json, type Spec } from '../helpers/spec';

const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : Math.floor(Math.random() * 2 ** 31);
/** Valid samples per operation. */
const VALID_SAMPLES = 40;
/** Bad inputs per operation and kind, at most (chosen by the seed). */
const PER_KIND = 200;

const OPERATIONS = listOperations();

let ctx: TestContext;
let server: http.Server;
let port: number;
let probe: ChangeProbe;
let spec: Spec;
let operations: Operation[];
let known: Known;
/** codedErrorOperations of the spec. */
let codedErrors: Set<string>;
/** What the run sent, for the line printed at its end. */
const sent = { requests: 0, refused: 0, started: Date.now() };

/** A number from a string, to give each operation its own stream of the seed. */
function hash(text: string): number {
  let h = 2166136261;
  for (const c of text) h = Math.imul(h ^ c.charCodeAt(0), 16777619);
  return h >>> 0;
}

beforeAll(async () => {
  process.stdout.write(`fuzz seed ${SEED} (FUZZ_SEED=${SEED} repeats this run)\n`);
  sent.started = Date.now();
  ctx = await makeTestContext(
    {
      rateLimitStore: 'memory',
      rateLimitPerMinute: 1_000_000,
      bulkRateLimitPerMinute: 1_000_000,
      ingestRateLimitPerIp: 1_000_000,
      ingestRateLimitPerProject: 1_000_000,
      publicRedirectRateLimitPerIp: 1_000_000,
      publicRedirectRateLimitPerProject: 1_000_000,
    },
    { media: true },
  );
  server = createHttpServer(ctx.app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  probe = await makeChangeProbe(ctx.testDb);
  spec = await loadSpec();
  codedErrors = codedErrorOperations(spec);
  process.stdout.write(`coded errors: ${[...codedErrors].join(', ')}\n`);
  operations = OPERATIONS.map((ref) => describeOperation(spec, ref));
});

afterAll(async () => {
  const seconds = ((Date.now() - sent.started) / 1000).toFixed(1);
  process.stdout.write(
    `fuzz: ${sent.requests} requests (${sent.refused} refused, each checked for writes) on ${ctx?.testDb.dialect} in ${seconds} s, seed ${SEED}\n`,
  );
  await probe?.close();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  await ctx?.close();
});

interface Answer {
  status: number;
  contentType?: string;
  text: string;
  setCookie?: string[];
}

function send(r: HttpRequest): Promise<Answer> {
  return new Promise((resolve, reject) => {
    let answered: Answer | undefined;
    const length = r.body === undefined ? {} : { 'content-length': String(Buffer.byteLength(r.body)) };
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: r.method.toUpperCase(),
        path: r.target,
        headers: { ...r.headers, ...length, connection: 'close' },
        timeout: 20_000,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (text += c));
        res.on('end', () =>
          resolve(
            (answered = {
              status: res.statusCode!,
              contentType: res.headers['content-type'],
              text,
              setCookie: res.headers['set-cookie'],
            }),
          ),
        );
      },
    );
    // The server may answer (413, 431) and close before a large body is all sent.
    req.on('error', (err) => (answered ? undefined : reject(err)));
    req.on('timeout', () => req.destroy(new Error('no answer in 20 s')));
    req.end(r.body);
  });
}

function sendRaw(bytes: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(bytes));
    socket.setTimeout(20_000, () => socket.destroy());
    let data = '';
    socket.setEncoding('latin1');
    socket.on('data', (c) => (data += c));
    socket.on('error', (err) => (data ? undefined : reject(err)));
    socket.on('close', () => {
      const split = data.indexOf('\r\n\r\n');
      const head = data.slice(0, split);
      resolve({
        status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0),
        contentType: /\r\ncontent-type: ([^\r]+)/i.exec(head)?.[1],
        text: Buffer.from(data.slice(split + 4), 'latin1').toString('utf8'),
      });
    });
  });
}

/** The fixture account's active case: the one it is in (an earlier fixture's, unless a request closed it), or a new one. */
async function activeCase(key: string): Promise<string> {
  const found = await send({
    method: 'get',
    target: '/cases?account_id=fuzz-account&status=active',
    headers: { 'x-api-key': key },
  });
  const active = (JSON.parse(found.text) as { cases: { case_id: string }[] }).cases[0];
  if (active) return active.case_id;
  const opened = await send({
    method: 'post',
    target: '/cases',
    headers: { 'content-type': 'application/json', 'x-api-key': key },
    body: JSON.stringify({ account_ids: ['fuzz-account'], reason: 'fuzz' }),
  });
  if (opened.status !== 201) throw new Error(`fixture case: ${opened.status} ${opened.text}`);
  return (JSON.parse(opened.text) as { case_id: string }).case_id;
}

/** The fixtures the known values name: an SDK session, an account on a list and in a case, a verification session. */
async function freshFixtures(project: ProjectCredentials = ctx.project): Promise<Known> {
  const key = project.api_key;
  const mark = await probe.mark();
  const sdk = personSession();
  const ingested = await send({
    method: 'post',
    target: '/ingest/session',
    headers: {
      'content-type': 'application/json',
      'x-project-id': project.project_id,
      'x-forwarded-for': LONDON_IP,
    },
    body: JSON.stringify(sdk),
  });
  // Accounts are made by authenticating a session with them.
  const account = await send({
    method: 'post',
    target: '/session/authenticate',
    headers: { 'content-type': 'application/json', 'x-api-key': key },
    body: JSON.stringify({ session_id: sdk.session_id, account: { id: 'fuzz-account', lists: ['vip'] } }),
  });
  const created = await send({
    method: 'post',
    target: '/liveness/session',
    headers: { 'content-type': 'application/json', 'x-api-key': key },
    body: JSON.stringify({ type: 'face-match', account_id: 'fuzz-account' }),
  });
  for (const [what, res] of [
    ['ingest', ingested],
    ['account', account],
    ['verification', created],
  ] as const) {
    if (res.status !== 200) throw new Error(`fixture ${what}: ${res.status} ${res.text}`);
  }
  // The probe sees these writes: were it blind, "no refused request wrote" would prove nothing.
  if (!(await probe.writesSince(mark)).length)
    throw new Error('the database probe did not see the fixtures being written');
  const caseId = await activeCase(key);
  const verification = JSON.parse(created.text) as { session_id: string; url: string };
  const token = new URL(verification.url).searchParams.get('token')!;
  return {
    session_id: [sdk.session_id, verification.session_id],
    referring_session_id: [sdk.session_id],
    device_session_id: [sdk.session_id],
    account_id: ['fuzz-account'],
    id: ['fuzz-account'],
    list_name: ['vip', 'allow'],
    case_id: [caseId],
    token: [token],
    'x-project-id': [project.project_id],
    project_id: [project.project_id],
  };
}

const IMAGE_MAGIC: Record<string, number[]> = {
  'image/jpeg': [0xff, 0xd8, 0xff, 0xe0],
  'image/png': [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
};

/**
 * A request of the operation from sampled values: parameters, the key, and a body the spec
 * allows; `onlyRequired`: without the optional parameters (a request most likely answered 2xx).
 */
async function sampledRequests(
  op: Operation,
  seed: number,
  count: number,
  full = false,
  onlyRequired = false,
): Promise<{ baseline: Baseline; bodyValid: boolean }[]> {
  const rng = mulberry32(seed);
  const out: { baseline: Baseline; bodyValid: boolean }[] = [];
  const media = op.body?.media[Math.floor(rng() * op.body.media.length)];
  const bodyValidator = media && !media.type.startsWith('image/') ? await validatorAt(media.pointer) : undefined;
  const bodies =
    media && bodyValidator
      ? samples(arbitraryOf(media.schema, known, undefined, 0, full), seed, Math.max(count * 4, 40))
      : [];
  const valid = bodies.filter((b) => bodyValidator!(b));
  for (let i = 0; i < count; i++) {
    const path: Record<string, string> = {};
    const query: Record<string, string> = {};
    const headers: Record<string, string> = op.secured ? { 'x-api-key': ctx.project.api_key } : {};
    for (const p of op.parameters) {
      if (!p.required && (onlyRequired || rng() < 0.5)) continue;
      // OpenAPI's allowEmptyValue is false unless a parameter says otherwise: no empty query values.
      const schema =
        p.in === 'query' && p.schema.type === 'string'
          ? { ...p.schema, minLength: Math.max(1, p.schema.minLength ?? 0) }
          : p.schema;
      const [value] = samples(arbitraryOf(schema, known, p.name), seed + i * 7919 + hash(p.name), 1);
      const text = typeof value === 'string' ? value : JSON.stringify(value);
      if (p.in === 'path') path[p.name] = text;
      else if (p.in === 'query') query[p.name] = text;
      else headers[p.name] = text;
    }
    let body: Baseline['body'];
    if (media?.type.startsWith('image/')) {
      body = {
        type: media.type,
        bytes: Buffer.concat([
          Buffer.from(IMAGE_MAGIC[media.type] ?? [0x52, 0x49, 0x46, 0x46, 0, 0, 0, 0, 0x57, 0x45, 0x42, 0x50]),
          Buffer.from(samples(arbitraryOf({ type: 'string' }), seed + i, 1)[0] as string),
        ]),
      };
    } else if (media) {
      const value = bodyValidator
        ? valid[i % Math.max(valid.length, 1)]
        : samples(arbitraryOf(media.schema, known), seed + i, 1)[0];
      body = value === undefined ? undefined : { type: media.type, value };
    }
    out.push({ baseline: { path, query, headers, body }, bodyValid: !bodyValidator || valid.length > 0 });
  }
  return out;
}

/** Whether the spec allows the JSON text as the operation's body (undefined: not a JSON body of the operation). */
async function bodyAllowed(op: Operation, c: Case): Promise<boolean | undefined> {
  if (c.json === undefined || !c.request) return undefined;
  const type = c.request.headers['content-type'];
  const media = op.body?.media.find((m) => m.type === type);
  if (!media) return undefined;
  let parsed: Json;
  try {
    // A leading byte-order mark is allowed (RFC 8259 lets a parser ignore it; body-parser does).
    parsed = JSON.parse(c.json.replace(/^\ufeff/, '')) as Json;
  } catch {
    return false;
  }
  return (await validatorAt(media.pointer))(parsed) as boolean;
}

/**
 * Operations whose declared errors include openapi.yaml's coded verification body (LivenessError,
 * with `error`, `request_id` and `success`) beside the plain one: read from the spec, so that a
 * new operation answering it needs no line here.
 */
function codedErrorOperations(doc: Spec): Set<string> {
  const CODED = '#/components/schemas/LivenessError';
  /** Whether `x` reaches the coded body through its references. */
  const reaches = (x: Json, seen = new Set<string>()): boolean => {
    if (x === null || typeof x !== 'object') return false;
    const ref = (x as { $ref?: Json }).$ref;
    if (typeof ref === 'string') {
      if (ref === CODED) return true;
      if (seen.has(ref)) return false;
      seen.add(ref);
      return reaches(
        ref
          .split('/')
          .slice(1)
          .reduce<Json>((node, key) => (node as Record<string, Json>)[key]!, doc),
        seen,
      );
    }
    return Object.values(x).some((v) => reaches(v, seen));
  };
  const out = new Set<string>();
  for (const item of Object.values(doc.paths as Record<string, Record<string, Json>>))
    for (const op of Object.values(item) as { operationId?: string; responses?: Record<string, Json> }[]) {
      const errors = Object.entries(op?.responses ?? {}).filter(([status]) => Number(status) >= 400);
      if (op.operationId && errors.some(([, r]) => reaches(r))) out.add(op.operationId);
    }
  return out;
}

/** What is wrong with one answer (empty: nothing). */
async function judge(op: Operation, c: Case, answer: Answer, writes: string[]): Promise<string[]> {
  const problems: string[] = [];
  // A raw case is a request line: method, target, version.
  const method = c.request?.method ?? (c.raw!.split(' ')[0]!.toLowerCase() as Operation['method']);
  const target = c.request?.target ?? c.raw!.split(' ')[1]!;
  // Node's HTTP parser answers a request that is not well-formed before anything is routed.
  const reached = c.kind === 'http' ? op : operationAt(operations, method, target);
  if (answer.status >= 500 || answer.status < 100) problems.push('a 5xx (or no answer)');
  if (reached ? !reached.statuses.includes(answer.status) : ![404, 405].includes(answer.status)) {
    problems.push(`status ${answer.status} is not declared for ${reached?.operationId ?? 'a path of no operation'}`);
  }
  if (answer.status >= 400) {
    let body: unknown;
    try {
      body = JSON.parse(answer.text);
    } catch {
      body = answer.text;
    }
    const shaped =
      /^application\/json/.test(answer.contentType ?? '') &&
      typeof body === 'object' &&
      body !== null &&
      // verify-face / verify-id's coded errors add the code clients branch on (VerificationResultError).
      (Object.keys(body).sort().join() === 'message,statusCode' ||
        (codedErrors.has(reached?.operationId ?? '') &&
          Object.keys(body).sort().join() === 'error,message,request_id,statusCode,success')) &&
      (body as { statusCode: unknown }).statusCode === answer.status &&
      typeof (body as { message: unknown }).message === 'string' &&
      (body as { message: string }).message.length > 0;
    if (!shaped)
      problems.push(`the body is not {statusCode, message}: ${answer.contentType} ${answer.text.slice(0, 200)}`);
  }
  if (answer.status >= 400 && answer.status < 500 && writes.length)
    problems.push(`a refused request wrote: ${writes.join(', ')}`);
  if (answer.status < 400 && (await bodyAllowed(op, c)) === false)
    problems.push('a body the spec does not allow was accepted');
  if (c.textRuleField && reached === op) {
    const message = (() => {
      try {
        return String(JSON.parse(answer.text).message);
      } catch {
        return '';
      }
    })();
    if (answer.status !== 400 || !message.startsWith(`${c.textRuleField} `))
      problems.push(`expected 400 naming ${c.textRuleField}`);
  }
  return problems;
}

async function run(op: Operation, c: Case): Promise<string[]> {
  sent.requests++;
  const mark = await probe.mark();
  const answer = c.raw !== undefined ? await sendRaw(c.raw) : await send(c.request!);
  const refused = answer.status >= 400 && answer.status < 500;
  if (refused) sent.refused++;
  const writes = refused ? await probe.writesSince(mark) : [];
  const problems = await judge(op, c, answer, writes);
  return problems.map((p) => `${c.kind}: ${c.title} → ${answer.status} ${answer.text.slice(0, 160)}\n    ${p}`);
}

/** At most `n` of the cases of each kind, chosen by the seed (every kind keeps some). */
function perKind(cases: Case[], n: number, rng: () => number): Case[] {
  const byKind = new Map<string, Case[]>();
  for (const c of cases) byKind.set(c.kind, [...(byKind.get(c.kind) ?? []), c]);
  return [...byKind.values()].flatMap((list) =>
    list
      .map((c) => ({ c, r: rng() }))
      .sort((a, b) => a.r - b.r)
      .slice(0, n)
      .map(({ c }) => c),
  );
}

describe.each(OPERATIONS)('$operationId ($method $path)', (ref) => {
  it('when it is sent bad inputs of every kind and valid inputs sampled from its schemas, then no 5xx, every error in the error shape, every status declared, and no refused request writes', async () => {
    const op = operations.find((o) => o.operationId === ref.operationId)!;
    const seed = (SEED ^ hash(op.operationId)) >>> 0;
    known = await freshFixtures();
    const failures: string[] = [];

    const sampled = await sampledRequests(op, seed, VALID_SAMPLES);
    if (op.body && !at(sampled, 0).bodyValid)
      failures.push(`no body sampled from ${op.operationId}'s schema is valid: the sampler needs work`);
    const kinds = new Set<string>();
    for (const [i, { baseline }] of sampled.entries()) {
      failures.push(
        ...(await run(op, {
          kind: 'valid',
          title: `sample ${i}`,
          request: requestOf(op, baseline),
          json: baseline.body?.value === undefined ? undefined : JSON.stringify(baseline.body.value),
        })),
      );
    }
    // The bad inputs change a valid request that reaches the operation's fixtures where it can.
    known = await freshFixtures();
    // The baseline has every member the body can have, so that each of them is changed.
    const { baseline } = only(await sampledRequests(op, seed + 1, 1, true));
    if (op.body && !baseline.body)
      failures.push(
        `no body with every member sampled from ${op.operationId}'s schema is valid: the sampler needs work`,
      );
    const rng = mulberry32(seed);
    for (const c of perKind(badCases(op, baseline, rng), PER_KIND, rng)) {
      kinds.add(c.kind);
      failures.push(...(await run(op, c)));
    }

    // Every kind of bad input that applies to the operation was sent.
    const applies = [
      'parameter',
      'http',
      'method',
      'body',
      ...(op.secured ? ['key'] : []),
      ...(op.parameters.some((p) => p.in === 'path') ? ['path'] : []),
      ...(op.parameters.some((p) => p.in === 'query' && ['integer', 'number'].includes(String(p.schema.type)))
        ? ['non-finite']
        : []),
      ...(op.parameters.some((p) => p.in === 'query' && p.name === 'cursor') ? ['cursor'] : []),
      ...(op.body ? ['content type', 'size'] : []),
      ...(op.body?.media.some((m) => m.type === 'application/json')
        ? ['depth', 'text', 'type', 'limit', 'unknown member']
        : []),
    ];
    expect(applies.filter((k) => !kinds.has(k))).toEqual([]);
    if (failures.length)
      throw new Error(
        `FUZZ_SEED=${SEED}: ${failures.length} problem(s) in ${op.operationId}:\n${failures.slice(0, 25).join('\n')}`,
      );
  }, 120_000);
});

/**
 * GETs that write by design, whoever sends them, each with why. GET /liveness/session writes
 * too, with a full-access key only (the one credential domain/operators.ts lets call it).
 * Not listed because the fixed clock never makes them due here: an operator's session has
 * its `last_seen_at` written at most once a minute (usecases/operators.ts), and the rate
 * limits count in memory in this suite.
 */
const WRITING_GETS: Record<string, string> = {
  redirectToVerification: 'the public link: each visit starts a session, with no credential, rate limited',
};

/** GETs no request of this suite can get a 2xx or 3xx from, each with why (the others must, or "nothing written" says little). */
const UNANSWERED_GETS: Record<string, string> = {
  getMetrics: 'no metrics in this app (METRICS=off): 404',
  startConsoleOidcSignIn: 'no OpenID Connect provider configured: 404',
  finishConsoleOidcSignIn: 'no OpenID Connect provider configured: 404',
  getEvaluation: 'a sampled request_id names no evaluation',
  getWebhookDelivery: 'a sampled request_id names no delivery',
  getRuleDraft: 'a sampled draft_id names no draft',
};

/**
 * The operation's request on the fixtures: each parameter the fixtures give a value of its type
 * (the first), the other required ones sampled, no other optional one.
 */
async function fixturesRequest(op: Operation, seed: number): Promise<Baseline> {
  const { baseline } = only(await sampledRequests(op, seed, 1, false, true));
  for (const p of op.parameters) {
    const value = known[p.name]?.find((v) => typeof v === p.schema.type);
    if (typeof value !== 'string') continue;
    if (p.in === 'path') baseline.path[p.name] = value;
    else if (p.in === 'query') baseline.query[p.name] = value;
    else baseline.headers[p.name] = value;
  }
  return baseline;
}

/** The credentials a GET is sent with, of the project: both API key scopes, and each operator role by its cookie. */
async function credentials(project: ProjectCredentials): Promise<{ who: string; headers: Record<string, string> }[]> {
  const projectId = project.project_id;
  const { api_key: readOnly } = await ctx.services.projects.addKey(projectId, 'read_only');
  const out: { who: string; headers: Record<string, string> }[] = [
    { who: 'a read-only key', headers: { 'x-api-key': readOnly } },
    { who: 'a full key', headers: { 'x-api-key': project.api_key } },
  ];
  for (const role of OPERATOR_ROLES) {
    const email = `fuzz-${role}@example.com`;
    const password = 'correct horse battery staple';
    await ctx.services.operators.add({ projectId, email, role, password });
    const login = await send({
      method: 'post',
      target: '/console/login',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    const cookie = login.setCookie?.[0]?.split(';')[0];
    if (login.status !== 200 || !cookie) throw new Error(`sign-in of the ${role}: ${login.status} ${login.text}`);
    // No CSRF token: a GET does not need one, and a page of the same site can make the browser send the cookie alone.
    out.push({ who: `the ${role}'s cookie`, headers: { 'x-api-key': '', cookie } });
  }
  return out;
}

describe('every GET, by each credential', () => {
  const gets = OPERATIONS.filter((o) => o.method === 'get');
  let senders: { who: string; headers: Record<string, string> }[];

  beforeAll(async () => {
    // A project of its own: the operations fuzzed above change the other's settings (groups on: 400 to the query form).
    const project = await ctx.services.projects.create({ name: 'Every GET' });
    senders = await credentials(project);
    known = await freshFixtures(project);
  });

  it.each(gets)(
    'when $operationId is sent valid requests with a read-only key, a full key and each role’s cookie, then nothing is written (but for the writes it is there for)',
    async (ref) => {
      const op = operations.find((o) => o.operationId === ref.operationId)!;
      const seed = (SEED ^ hash(`${op.operationId} by each credential`)) >>> 0;
      // One request on the fixtures, and one sampled with optional parameters.
      const requests = [await fixturesRequest(op, seed), only(await sampledRequests(op, seed + 1, 1)).baseline];
      const failures: string[] = [];
      const statuses = new Set<number>();
      let created = 0;
      for (const [i, baseline] of requests.entries()) {
        for (const { who, headers } of senders) {
          sent.requests++;
          const mark = await probe.mark();
          const answer = await send(requestOf(op, baseline, { headers }));
          const writes = await probe.writesSince(mark);
          statuses.add(answer.status);
          if (answer.status >= 500)
            failures.push(`request ${i} by ${who}: ${answer.status} ${answer.text.slice(0, 160)}`);
          if (op.operationId === 'getVerificationSession' && who === 'a full key' && answer.status === 200) {
            if (writes.length) created++;
          } else if (writes.length && !(op.operationId in WRITING_GETS)) {
            failures.push(`request ${i} by ${who} → ${answer.status} wrote: ${writes.join(', ')}`);
          }
        }
      }
      if (![...statuses].some((s) => s < 400) && !(op.operationId in UNANSWERED_GETS))
        failures.push(
          `no request was answered 2xx or 3xx (${[...statuses].join(', ')}): the requests reach no data to read`,
        );
      // The probe sees the query form's writes: were it blind, "nothing is written" would prove nothing.
      if (op.operationId === 'getVerificationSession' && created !== requests.length)
        failures.push(
          `a full key created ${created} sessions in ${requests.length} calls, or the probe did not see them`,
        );
      if (failures.length)
        throw new Error(
          `FUZZ_SEED=${SEED}: ${failures.length} problem(s) in ${op.operationId}:\n${failures.join('\n')}`,
        );
    },
    60_000,
  );
});
