/**
 * Drop-in compatibility (issue 16): every example of the production service's published OpenAPI
 * 3.0 files (`../shared/vendor-verisoul/openapi/*.json`, read as data, never copied) is replayed
 * against the real app and database, and each answer is checked three ways:
 *
 * - its status is the example's status;
 * - its body is valid against the published response schema (OpenAPI 3.0 → JSON Schema draft-07:
 *   `nullable` becomes a `null` type, `$ref`s resolve inside the published document);
 * - every member of the published example is present in it (arrays: in every element).
 *
 * The requests are built here from real data: sessions posted through POST /ingest/session,
 * accounts made by authenticating them, lists through the account's `lists`, verification
 * sessions completed through the hosted page's routes with the fake analysis engine.
 *
 * Where interface-spec.md mandates a different answer, EXCEPTIONS names the deviation and the
 * line that mandates it. NOT_YET_CONFORMANT names replays that do not conform yet: it must be
 * exactly the set of failing replays, so a replay that starts to pass, or a new failure, fails
 * this file until the set is updated.
 *
 * Where the vendor folder is absent (a clone elsewhere) the whole file reports itself skipped.
 * TRUSTGATE_VENDOR_DIR points it at another copy.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import request from 'supertest';
import type { AccountInput } from '../../src/api-types';
import type { TestContext } from '../helpers/app';
import { LONDON_IP, personSession, US_IP } from '../helpers/evaluation';
import { describeErrors } from '../helpers/spec';
import { verificationCaptures, verificationContext, verificationFlow } from '../helpers/verification';

const REPO = path.resolve(__dirname, '..', '..');
const VENDOR_DIR = path.resolve(REPO, process.env.TRUSTGATE_VENDOR_DIR ?? path.join('..', 'shared', 'vendor-verisoul'));
const OPENAPI_DIR = path.join(VENDOR_DIR, 'openapi');
/** The response fixtures a widely used PHP client (diego-ninja/verisoul-api) tests against. */
const FIXTURES_DIR = path.join(VENDOR_DIR, 'diego-ninja-fixtures');

/**
 * The published operation each PHP-client fixture answers (and the published file whose schema
 * judges it). A fixture not named here fails the suite, so a new one is never silently skipped.
 */
const FIXTURE_OPERATIONS: Record<string, { file: string; operation: string; example?: string } | { skipped: string }> =
  {
    'add-account-to-list.json': { file: 'list', operation: 'POST /list/{list_name}/account/{account_id}' },
    'authenticate-session.json': { file: 'session', operation: 'POST /session/authenticate' },
    'create-list.json': { file: 'list', operation: 'POST /list/{list_name}' },
    'delete-account.json': { file: 'account', operation: 'DELETE /account/{account_id}' },
    'delete-list.json': { file: 'list', operation: 'DELETE /list/{list_name}' },
    'enroll-account.json': { file: 'facematch', operation: 'POST /liveness/enroll' },
    'get--all-accounts-in-list.json': { file: 'list', operation: 'GET /list/{list_name}' },
    'get-account-sessions.json': { file: 'account', operation: 'GET /account/{account_id}/sessions' },
    'get-account.json': { file: 'account', operation: 'GET /account/{account_id}' },
    'get-id-check-session.json': { file: 'idcheck', operation: 'GET /liveness/session' },
    'get-linked-accounts.json': { file: 'account', operation: 'GET /account/{account_id}/accounts-linked' },
    'get-list.json': { file: 'list', operation: 'GET /list' },
    'get-match-face-session.json': { file: 'facematch', operation: 'GET /liveness/session' },
    'get-session.json': { file: 'session', operation: 'GET /session/{session_id}' },
    'phone-verification.json': {
      skipped:
        'phone verification is not an operation of the published OpenAPI files nor of interface-spec.md (the service has no phone API)',
    },
    'remove-account-from-list.json': { file: 'list', operation: 'DELETE /list/{list_name}/account/{account_id}' },
    'unauthenticated-session.json': { file: 'session', operation: 'POST /session/unauthenticated' },
    'update-account.json': { file: 'account', operation: 'PUT /account/{account_id}' },
    'verify-face.json': { file: 'facematch', operation: 'POST /liveness/verify-face' },
    'verify-id.json': { file: 'idcheck', operation: 'POST /liveness/verify-id' },
    'verify-identify.json': { file: 'facematch', operation: 'POST /liveness/verify-identity' },
  };

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Obj = { [k: string]: Json };

/** One published example of one response of one operation. */
interface Replay {
  /** `facematch POST /liveness/verify-face 400 example`: the name the sets below use. */
  id: string;
  file: string;
  method: string;
  path: string;
  status: number;
  example: string;
  value: Json;
  /** JSON pointer of the response schema in the published document. */
  schemaPointer: string;
}

/**
 * Deviations interface-spec.md mandates, each with the line that mandates it. `applies` receives
 * one schema error (`instancePath keyword`) or one missing member path of one replay.
 */
const EXCEPTIONS: { name: string; cites: string; applies(replay: Replay, problem: string): boolean }[] = [
  {
    name: 'ID Check device and network signals are booleans, without location_spoofing',
    cites: 'interface-spec.md:210',
    applies: (r, p) =>
      isIdCheckResult(r) &&
      (/^schema: \/device_network_signals\/\w+ must be number$/.test(p) ||
        p === 'missing member: device_network_signals.location_spoofing'),
  },
  {
    name: 'ID Check referring-session signals are booleans: impossible_travel, ip_mismatch, user_agent_mismatch',
    cites: 'interface-spec.md:211',
    applies: (r, p) =>
      isIdCheckResult(r) &&
      (/^schema: \/referring_session_signals\/\w+ must be number$/.test(p) ||
        /^missing member: referring_session_signals\.(device_timezone_mismatch|ip_timezone_mismatch)$/.test(p)),
  },
  {
    name: 'ID Check photo URLs are nested in document_data, not at the top of the result',
    cites: 'interface-spec.md:212',
    applies: (r, p) => isIdCheckResult(r) && /^missing member: photo_urls(\.|$)/.test(p),
  },
  {
    name: 'ID Check session data has no true_country_code',
    cites: 'interface-spec.md:213',
    applies: (r, p) => isIdCheckResult(r) && p === 'missing member: session_data.true_country_code',
  },
  {
    name: 'id_number2 is a string or null',
    cites: 'interface-spec.md:226',
    applies: (r, p) => isIdCheckResult(r) && p === 'schema: /document_data/user_data/id_number2 must be string',
  },
];

function isIdCheckResult(r: Replay): boolean {
  return r.file.includes('idcheck') && r.path === '/liveness/verify-id' && r.status === 200;
}

/**
 * Replays that do not conform yet, each with why: exactly the failing set (a replay that starts
 * to pass, or a new failure, fails this file). Empty since issue 16's last items.
 */
const NOT_YET_CONFORMANT: Record<string, string> = {};

function operationFiles(): string[] {
  return fs.existsSync(OPENAPI_DIR)
    ? fs
        .readdirSync(OPENAPI_DIR)
        .filter((f) => f.endsWith('.json'))
        .sort()
    : [];
}

/** `verisoul-facematch-openapi.json` → `facematch`. */
const shortName = (file: string) => file.replace(/^verisoul-/, '').replace(/-openapi\.json$/, '');
const pointerEscape = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

function loadDocument(file: string): Obj {
  return JSON.parse(fs.readFileSync(path.join(OPENAPI_DIR, file), 'utf8')) as Obj;
}

/** Every (operation, status, example) of a published document. */
function replaysOf(file: string, doc: Obj): Replay[] {
  const out: Replay[] = [];
  for (const [p, ops] of Object.entries(doc.paths as Record<string, Record<string, Obj>>)) {
    for (const [method, op] of Object.entries(ops)) {
      for (const [status, response] of Object.entries((op.responses ?? {}) as Record<string, Obj>)) {
        const media = (response.content as Record<string, Obj> | undefined)?.['application/json'];
        if (!media) continue;
        const named: [string, Json][] =
          media.example !== undefined
            ? [['example', media.example]]
            : Object.entries((media.examples ?? {}) as Record<string, Obj>).map(([name, e]) => [name, e.value ?? null]);
        for (const [example, value] of named) {
          out.push({
            id: `${shortName(file)} ${method.toUpperCase()} ${p} ${status} ${example}`,
            file,
            method: method.toUpperCase(),
            path: p,
            status: Number(status),
            example,
            value,
            schemaPointer: `/paths/${pointerEscape(p)}/${method}/responses/${status}/content/application~1json/schema`,
          });
        }
      }
    }
  }
  return out;
}

/** OpenAPI 3.0 schema objects as JSON Schema draft-07: `nullable: true` adds the null type. */
function toJsonSchema(node: Json): Json {
  if (Array.isArray(node)) return node.map(toJsonSchema);
  if (node === null || typeof node !== 'object') return node;
  const out: Obj = {};
  for (const [k, v] of Object.entries(node)) out[k] = toJsonSchema(v);
  if (out.nullable === true) {
    delete out.nullable;
    if (typeof out.type === 'string') out.type = [out.type, 'null'];
    if (Array.isArray(out.enum)) out.enum = [...out.enum, null];
    if (typeof out.$ref === 'string') return { anyOf: [{ $ref: out.$ref }, { type: 'null' }] };
  }
  return out;
}

/** The member paths of an example: `session.location.zip_code`, `linked_accounts[].email`. */
function memberPaths(value: Json, prefix = ''): string[] {
  if (Array.isArray(value)) return [...new Set(value.flatMap((v) => memberPaths(v, `${prefix}[]`)))];
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => {
    const here = prefix ? `${prefix}.${k}` : k;
    return [here, ...memberPaths(v, here)];
  });
}

/** Whether `member` is present in `body`: through arrays, in every element of a non-empty array. */
function hasMember(body: Json, member: string): boolean {
  const steps = member.split(/(?=\[\])|\./).filter(Boolean);
  const walk = (node: Json, i: number): boolean => {
    if (i === steps.length) return true;
    const step = steps[i]!;
    if (step === '[]') return Array.isArray(node) && node.length > 0 && node.every((element) => walk(element, i + 1));
    return (
      node !== null &&
      typeof node === 'object' &&
      !Array.isArray(node) &&
      Object.prototype.hasOwnProperty.call(node, step) &&
      walk(node[step]!, i + 1)
    );
  };
  return walk(body, 0);
}

interface Outcome {
  status: number;
  statusMatched: boolean;
  schemaErrors: string[];
  missingMembers: string[];
  excused: string[];
}

const problemsOf = (o: Outcome) => [
  ...(o.statusMatched ? [] : [`status ${o.status}`]),
  ...o.schemaErrors.map((e) => `schema: ${e}`),
  ...o.missingMembers.map((m) => `missing member: ${m}`),
];

const files = operationFiles();
const suite = files.length ? describe : describe.skip;
const title = files.length
  ? `drop-in compatibility: the published examples of ${OPENAPI_DIR} replayed`
  : `drop-in compatibility: SKIPPED, the vendor folder ${VENDOR_DIR} is absent (set TRUSTGATE_VENDOR_DIR)`;

const documents = new Map(files.map((f) => [f, loadDocument(f)]));
const published = files.flatMap((f) => replaysOf(f, documents.get(f)!));
const fixtureFiles = fs.existsSync(FIXTURES_DIR) ? fs.readdirSync(FIXTURES_DIR).filter((f) => f.endsWith('.json')) : [];

/**
 * The PHP client's fixtures as replays: each is the success answer of a published operation,
 * judged by that operation's published schema and by the fixture's members (the client reads them).
 */
function fixtureReplays(): Replay[] {
  return fixtureFiles.flatMap((fixture) => {
    const target = FIXTURE_OPERATIONS[fixture];
    if (!target || 'skipped' in target) return [];
    const base = published.find(
      (r) => shortName(r.file) === target.file && `${r.method} ${r.path}` === target.operation && r.status < 300,
    );
    if (!base) throw new Error(`${fixture}: no published success answer of ${target.file} ${target.operation}`);
    const value = JSON.parse(fs.readFileSync(path.join(FIXTURES_DIR, fixture), 'utf8')) as Json;
    // An authenticate or unauthenticated answer with linked accounts was asked for them.
    const linked = value !== null && typeof value === 'object' && 'linked_accounts' in value;
    return [
      { ...base, id: `php-client ${fixture}`, example: `php-client fixture${linked ? ' accounts_linked' : ''}`, value },
    ];
  });
}
const replays = [...published, ...fixtureReplays()];

suite(title, () => {
  let ctx: TestContext;
  let flow: ReturnType<typeof verificationFlow>;
  let close: () => Promise<void>;
  let groupsProject: { project_id: string; api_key: string };
  const ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false });
  addFormats(ajv);
  for (const [file, doc] of documents) ajv.addSchema(toJsonSchema(doc) as object, file);
  const outcomes = new Map<string, Outcome>();
  let counter = 0;
  const fresh = (prefix: string) => `${prefix}_${++counter}`;

  beforeAll(async () => {
    ({ ctx, flow, close } = await verificationContext());
    const groups = await ctx.services.projects.create({ name: 'Replay groups project', groups: true });
    groupsProject = { project_id: groups.project_id, api_key: groups.api_key };
    await world();
  });
  afterAll(async () => {
    const all = [...outcomes.values()];
    const count = (f: (o: Outcome) => boolean) => all.filter(f).length;
    console.log(
      [
        `compatibility replay: ${all.length} replays of ${files.length} published files`,
        `  statuses matched: ${count((o) => o.statusMatched)}`,
        `  schema-valid:     ${count((o) => o.schemaErrors.length === 0)}`,
        `  members-complete: ${count((o) => o.missingMembers.length === 0)}`,
        `  conformant:       ${count((o) => problemsOf(o).length === 0)} (exceptions applied: ${count((o) => o.excused.length > 0)})`,
        `  not yet conformant: ${Object.keys(NOT_YET_CONFORMANT).length}`,
      ].join('\n'),
    );
    await close();
  });

  /** The data every replay reads: an account with a linked account, both on a list. */
  const ACCOUNT = 'replay-account';
  const LINKED = 'replay-linked';
  const LIST = 'replay_users';
  const device = {
    device_id: randomUUID(),
    browser_fingerprint: randomUUID().replace(/-/g, ''),
    gpu: 'ANGLE (Apple, ANGLE Metal Renderer: Apple M2, Unspecified Version)',
  };
  const accountInput: AccountInput = {
    id: ACCOUNT,
    email: 'replay.account@gmail.com',
    phone: '+14155550100',
    first_name: 'Ada',
    last_name: 'Byron',
    username: 'ada.b',
    expected_countries: ['US'],
    metadata: { plan: 'pro' },
    lists: [LIST],
  };
  const linkedInput: AccountInput = {
    id: LINKED,
    email: 'replay.linked@example.com',
    phone: '+14155550101',
    first_name: 'Grace',
    last_name: 'Hopper',
    username: 'grace.h',
    expected_countries: ['US', 'CA'],
    metadata: { plan: 'free' },
    lists: [LIST],
  };
  async function world() {
    const sdk = flow.sdk;
    await sdk.signIn(linkedInput, device, US_IP);
    await sdk.signIn(accountInput, device, US_IP);
  }
  /** A session on the account's device, posted from the US and not yet evaluated. */
  const session = () => flow.sdk.ingest(personSession(device), US_IP);
  /** An account signed in on a device and network of its own (so not linked to ACCOUNT), on `lists`. */
  async function account(lists: string[] = []) {
    const id = fresh('replay-account');
    await flow.sdk.signIn({ id, email: `${id}@example.com`, lists }, {}, LONDON_IP);
    return id;
  }
  /** A list created through authentication (its account on it). */
  async function list() {
    const name = fresh('replay_list');
    await account([name]);
    return name;
  }
  /** A completed verification session of the type, on the account's device. */
  async function verified(type: 'face-match' | 'id-check') {
    const s = await flow.create(type);
    const captures = verificationCaptures(type, 'replay-person');
    // On the account's device: the result's matches then hold the account.
    const res = await flow.complete(s, captures, { session: device, ip: US_IP });
    if (res.status !== 200) throw new Error(`complete ${res.status}: ${JSON.stringify(res.body)}`);
    return s.id;
  }

  interface Built {
    path: string;
    query?: Record<string, string>;
    body?: Json;
    /** The key to send; none for the public routes. */
    apiKey?: string | null;
  }
  const ok = (r: Replay) => r.status < 300;
  const linkedQuery = (r: Replay) => (/accounts_linked/.test(r.example) ? { accounts_linked: 'true' } : undefined);
  const isIdCheck = (r: Replay) => r.file.includes('idcheck');

  /** How each published operation's request is built, for its success and its error example. */
  const REQUESTS: Record<string, (r: Replay) => Promise<Built>> = {
    'GET /session/{session_id}': async (r) => ({ path: `/session/${ok(r) ? await session() : randomUUID()}` }),
    'POST /session/authenticate': async (r) => ({
      path: '/session/authenticate',
      query: linkedQuery(r),
      body: { session_id: ok(r) ? await session() : randomUUID(), account: accountInput as Json },
    }),
    'POST /session/unauthenticated': async (r) => ({
      path: '/session/unauthenticated',
      query: linkedQuery(r),
      body: { session_id: ok(r) ? await session() : randomUUID() },
    }),
    'GET /account/{account_id}': async (r) => ({ path: `/account/${ok(r) ? ACCOUNT : fresh('replay-nobody')}` }),
    'PUT /account/{account_id}': async (r) => {
      const id = ok(r) ? await account() : fresh('replay-nobody');
      return {
        path: `/account/${id}`,
        body: {
          id,
          email: 'replay.updated@example.com',
          phone: '+14155550188',
          first_name: 'Ada',
          last_name: 'Lovelace',
          username: 'ada_updated',
          expected_countries: ['US'],
        },
      };
    },
    'DELETE /account/{account_id}': async (r) => ({
      path: `/account/${ok(r) ? await account() : fresh('replay-nobody')}`,
    }),
    'GET /account/{account_id}/sessions': async (r) => ({
      path: `/account/${ok(r) ? ACCOUNT : fresh('replay-nobody')}/sessions`,
    }),
    'GET /account/{account_id}/accounts-linked': async (r) => ({
      path: `/account/${ok(r) ? ACCOUNT : fresh('replay-nobody')}/accounts-linked`,
    }),
    'GET /list': async () => ({ path: '/list' }),
    'GET /list/{list_name}': async (r) => ({ path: `/list/${ok(r) ? LIST : fresh('replay_missing')}` }),
    'POST /list/{list_name}': async (r) => ({
      path: `/list/${ok(r) ? fresh('replay_new') : LIST}`,
      body: { list_description: 'Accounts replayed by the compatibility test' },
    }),
    'DELETE /list/{list_name}': async (r) => ({ path: `/list/${ok(r) ? await list() : fresh('replay_missing')}` }),
    'POST /list/{list_name}/account/{account_id}': async (r) => ({
      path: `/list/${await list()}/account/${ok(r) ? ACCOUNT : fresh('replay-nobody')}`,
    }),
    'DELETE /list/{list_name}/account/{account_id}': async (r) => {
      const name = fresh('replay_list');
      const member = await account([name]);
      return { path: `/list/${name}/account/${ok(r) ? member : fresh('replay-nobody')}` };
    },
    'GET /public/liveness-redirect': async (r) => ({
      path: '/public/liveness-redirect',
      apiKey: null,
      query: {
        ...(r.example === 'missing_project_id' ? {} : { project_id: groupsProject.project_id }),
        ...(isIdCheck(r) ? { id: 'true' } : {}),
      },
    }),
    'GET /liveness/session': async (r) => ({
      path: '/liveness/session',
      query: isIdCheck(r) ? { id: 'true' } : undefined,
      apiKey: ok(r) ? undefined : groupsProject.api_key,
    }),
    'POST /liveness/enroll': async (r) => ({
      path: '/liveness/enroll',
      body: {
        session_id: ok(r) ? await verified(isIdCheck(r) ? 'id-check' : 'face-match') : randomUUID(),
        account_id: ACCOUNT,
      },
    }),
    'POST /liveness/verify-identity': async (r) => {
      if (!ok(r)) return { path: '/liveness/verify-identity', body: { session_id: randomUUID(), account_id: ACCOUNT } };
      // The account's enrolled face first (a session enrolled through the API), then a new session to compare.
      const enrolled = await verified('face-match');
      const res = await request(ctx.app)
        .post('/liveness/enroll')
        .set('x-api-key', ctx.project.api_key)
        .send({ session_id: enrolled, account_id: ACCOUNT });
      if (res.status !== 200) throw new Error(`enroll ${res.status}: ${JSON.stringify(res.body)}`);
      return {
        path: '/liveness/verify-identity',
        body: { session_id: await verified('face-match'), account_id: ACCOUNT },
      };
    },
    'POST /liveness/verify-face': async (r) => ({
      path: '/liveness/verify-face',
      body: { session_id: ok(r) ? await verified('face-match') : randomUUID() },
    }),
    'POST /liveness/verify-id': async (r) => ({
      path: '/liveness/verify-id',
      body: { session_id: ok(r) ? await verified('id-check') : randomUUID() },
    }),
  };

  async function replay(r: Replay): Promise<Outcome> {
    const build = REQUESTS[`${r.method} ${r.path}`];
    if (!build) throw new Error(`no request is built for the published operation ${r.method} ${r.path}`);
    const built = await build(r);
    let req = request(ctx.app)[r.method.toLowerCase() as 'get' | 'post' | 'put' | 'delete'](built.path);
    if (built.apiKey !== null) req = req.set('x-api-key', built.apiKey ?? ctx.project.api_key);
    if (built.query) req = req.query(built.query);
    const res = built.body === undefined ? await req : await req.send(built.body as object);
    const body = res.body as Json;
    const validate: ValidateFunction =
      ajv.getSchema(`${r.file}#${r.schemaPointer}`) ?? ajv.compile({ $ref: `${r.file}#${r.schemaPointer}` });
    const schemaErrors = validate(body)
      ? []
      : describeErrors(validate.errors)
          .split('\n')
          .map((line) => line.replace(/ \{.*$/, ''));
    const missingMembers = memberPaths(r.value).filter((m) => !hasMember(body, m));
    const excused: string[] = [];
    const keep = (problem: string) => {
      const exception = EXCEPTIONS.find((e) => e.applies(r, problem));
      if (exception) excused.push(exception.name);
      return !exception;
    };
    return {
      status: res.status,
      statusMatched: res.status === r.status,
      schemaErrors: schemaErrors.filter((e) => keep(`schema: ${e}`)),
      missingMembers: missingMembers.filter((m) => keep(`missing member: ${m}`)),
      excused,
    };
  }

  test('every PHP-client fixture is replayed, or named with the reason it is not', () => {
    expect(fixtureFiles.filter((f) => !(f in FIXTURE_OPERATIONS))).toEqual([]);
  });

  test('every published operation has a request built for it', () => {
    const missing = [...new Set(replays.map((r) => `${r.method} ${r.path}`))].filter((k) => !REQUESTS[k]);
    expect(missing).toEqual([]);
  });

  // (`.each` refuses an empty table: with the vendor folder absent there is none.)
  (replays.length
    ? test.each(replays.map((r) => [r.id, r] as const))
    : test.skip.each([['no replays', replays[0]!] as const]))('%s', async (_id, r) => {
    const outcome = await replay(r);
    outcomes.set(r.id, outcome);
    const problems = problemsOf(outcome);
    if (r.id in NOT_YET_CONFORMANT) {
      // Listed as in progress: it must still fail, or the list is stale.
      expect({ replay: r.id, stillFails: problems.length > 0 }).toEqual({ replay: r.id, stillFails: true });
    } else {
      expect({ replay: r.id, problems }).toEqual({ replay: r.id, problems: [] });
    }
  });

  test('NOT_YET_CONFORMANT and EXCEPTIONS name only published replays and exceptions in use', () => {
    const ids = new Set(replays.map((r) => r.id));
    expect(Object.keys(NOT_YET_CONFORMANT).filter((id) => !ids.has(id))).toEqual([]);
    const used = new Set([...outcomes.values()].flatMap((o) => o.excused));
    expect(EXCEPTIONS.map((e) => e.name).filter((name) => !used.has(name))).toEqual([]);
  });
});
