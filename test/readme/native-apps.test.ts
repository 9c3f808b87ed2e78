/**
 * docs/native-apps.md's examples against the real service and database: each platform's JSON
 * document is posted as the page says an app posts it, accepted, evaluated, and read back as the
 * platform's session; two sign-ins on one app install link as the page's table says; the Swift
 * and Kotlin snippets write exactly the members of their platform's document; the curl examples
 * run with `bash` against the service listening on loopback. There is no Swift or Kotlin compiler
 * on this machine, so the snippets are held to the documents (and the documents to the service),
 * not run.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import request from 'supertest';
import type { IngestSession } from '../../src/api-types';
import { PACKAGE_ROOT } from '../../src/spec';
import { makeTestContext, type TestContext } from '../helpers/app';
import { listen, type Listening } from '../helpers/browser';
import { LONDON_IP, scenario } from '../helpers/evaluation';
import { describeErrors, schemaValidator } from '../helpers/spec';
import { readmeExamples, substitute } from './examples';

const DOC = 'docs/native-apps.md';
const examples = readmeExamples(fs.readFileSync(path.join(PACKAGE_ROOT, DOC), 'utf8'), DOC);

function example(name: string): string {
  const found = examples.get(name);
  if (!found) throw new Error(`${DOC} has no example marked <!-- example: ${name} -->`);
  return found.code;
}

const documentOf = (name: 'ios-session' | 'android-session') => JSON.parse(example(name)) as IngestSession;

/** Every member name of a JSON document, nested ones included. */
function membersOf(value: unknown, into = new Set<string>()): Set<string> {
  if (value && typeof value === 'object' && !Array.isArray(value))
    for (const [key, member] of Object.entries(value)) {
      into.add(key);
      membersOf(member, into);
    }
  return into;
}

let ctx: TestContext;
beforeAll(async () => {
  ctx = await makeTestContext({ trustProxy: 'loopback' });
});
afterAll(() => ctx.close());

describe.each([
  ['ios-session', 'ios', /^iOS 17/],
  ['android-session', 'android', /^Android 14/],
] as const)('the %s document', (name, source, os) => {
  test('when an app posts it, then it is stored, evaluated as a clean session of its platform, and read back with its facts', async () => {
    const body = documentOf(name);
    const validate = await schemaValidator('IngestSession');
    expect(validate(body) ? '' : describeErrors(validate.errors)).toBe('');

    const posted = await request(ctx.app)
      .post('/ingest/session')
      .set('content-type', 'application/json')
      .set('x-project-id', ctx.project.project_id)
      .set('x-forwarded-for', LONDON_IP)
      .send(JSON.stringify(body));
    expect(posted.status).toBe(200);
    expect(posted.body).toEqual({ session_id: body.session_id });

    const r = await scenario(ctx).authenticated(body.session_id, { id: `native-${source}` });
    expect(r.decision).toBe('Real');
    expect(r.session.source).toBe(source);
    expect(r.session.source_version).toBe(body.source_version);
    expect(r.session.device_id).toBe(body.device_id);
    expect(r.session.device.category).toBe('mobile');
    expect(r.session.device.os).toMatch(os);
    expect(r.session.location.country_code).toBe('GB');
    expect(r.session.mobile).toMatchObject({
      brand: body.mobile!.brand,
      model: body.mobile!.model,
      oem_app_integrity: body.mobile!.oem_app_integrity,
    });
    // Nothing in the document speaks against the device or the network.
    expect(r.session.risk_signals).toMatchObject({
      device_risk: false,
      device_network_mismatch: false,
      location_spoofing: false,
    });
    expect(r.bot).toBeLessThan(0.2);

    // The app posts again with the same id and more touches: an update, the counts go up.
    const later = { ...body, events: { ...body.events!, touch: body.events!.touch! + 20 } };
    const again = await request(ctx.app)
      .post('/ingest/session')
      .set('x-project-id', ctx.project.project_id)
      .set('x-forwarded-for', LONDON_IP)
      .send(later);
    expect(again.status).toBe(200);
    const read = await request(ctx.app).get(`/session/${body.session_id}`).set('x-api-key', ctx.project.api_key);
    expect(read.status).toBe(200);
    expect(read.body.bot.touch_num_events).toBe(body.events!.touch! + 20);
  });

  test('when two accounts sign in on the same install, then they are linked as the page says: browser (the install id, score 1) and the native ids', async () => {
    const body = documentOf(name);
    const s = scenario(ctx);
    const first = { ...body, session_id: randomUUID() };
    await s.authenticated(await s.ingest(first, LONDON_IP), { id: `install-${source}-a` });
    const second = { ...body, session_id: randomUUID() };
    const r = await s.authenticated(await s.ingest(second, LONDON_IP), { id: `install-${source}-b` }, true);
    const link = r.linked_accounts!.find((l) => l.account_id === `install-${source}-a`);
    const expected = ['browser', 'mobile_id', ...(body.mobile?.apple_device_check ? ['apple_device_check'] : [])];
    // The same address within the day links by network too.
    expect([...link!.match_type].filter((t) => t !== 'network').sort()).toEqual(expected.sort());
    expect(link!.match_type).not.toContain('device');
    expect(link!.score).toBe(1);
  });
});

describe('the snippets', () => {
  test.each([
    // Swift: dictionary literals (`"key": value`) and subscripts (`body["key"] = value`).
    ['ios-swift', 'ios-session', /"([a-z][a-z0-9_]*)"\s*(?::|\]\s*=)/g],
    ['android-kotlin', 'android-session', /"([a-z][a-z0-9_]*)"\s+to\b/g],
  ] as const)('%s writes exactly the members of %s', (snippet, document, member) => {
    const written = new Set([...example(snippet).matchAll(member)].map((m) => m[1]!));
    expect([...written].sort()).toEqual([...membersOf(JSON.parse(example(document)))].sort());
  });
});

describe('the curl examples', () => {
  let server: Listening;
  let dir: string;
  beforeAll(async () => {
    server = await listen(ctx.app);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tg-native-curl-'));
  });
  afterAll(async () => {
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const bash = async (code: string) =>
    (await promisify(execFile)('bash', ['-euo', 'pipefail', '-c', code], { cwd: dir, timeout: 20_000 })).stdout;

  test('when each document is posted with the curl example and evaluated with the next one, then both answer as the page says', async () => {
    const base = 'https://trustgate.example.com';
    for (const name of ['ios-session', 'android-session'] as const) {
      const body = { ...documentOf(name), session_id: randomUUID() };
      fs.writeFileSync(path.join(dir, 'session.json'), JSON.stringify(body, null, 2));
      const posted = await bash(
        substitute(example('native-curl-ingest'), { [base]: server.origin, PROJECT_ID: ctx.project.project_id }),
      );
      expect(JSON.parse(posted)).toEqual({ session_id: body.session_id });

      const authenticate = substitute(example('native-curl-authenticate'), {
        [base]: server.origin,
        'tg_…': ctx.project.api_key,
        '3f9d2c4e-8b1a-4e6f-9c2d-7a5b1e0f4c3d': body.session_id,
      });
      const evaluated = JSON.parse(await bash(authenticate));
      expect(evaluated).toMatchObject({
        session_id: body.session_id,
        account_id: 'user-42',
        decision: expect.stringMatching(/^(Real|Fake)$/),
        session: { source: body.source, device_id: body.device_id },
      });
    }
  });
});
