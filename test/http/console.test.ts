/**
 * Operators of the console through HTTP with a real database: signing in (the cookie's flags,
 * one answer for a wrong password and an unknown email, throttling per address and per email),
 * the session (expiry, idle timeout, logout, a disabled operator), CSRF, each role against a
 * sample of operations and every action (each operation that changes something and needs more than
 * a viewer, sent with its example request by each role below the one it needs: refused, nothing
 * changed), read-only API keys, tenant isolation and the audit's actor. Response
 * validation is on, so every answer is also checked against openapi.yaml.
 */
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import type { AuditEvent, ConsoleSession, OperatorRole } from '../../src/api-types';
import { OPERATION_ROLES, OPERATOR_ROLES } from '../../src/domain/operators';
import { bundledSpec } from '../../src/spec';
import { makeTestContext, TEST_NOW, type TestContext } from '../helpers/app';
import { statementsDuring } from '../helpers/db';
import { scenario } from '../helpers/evaluation';

const PASSWORD = 'correct horse battery staple';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await makeTestContext({ trustProxy: 'loopback' });
});
afterAll(async () => {
  await ctx.close();
});
beforeEach(() => ctx.clock.set(TEST_NOW));

let ips = 0;
/** A residential London address (Sky UK) in a /24 of its own. */
function freshIp(): string {
  const n = ips++;
  return `90.${210 + Math.floor(n / 250)}.${n % 250}.40`;
}

async function newProject(c: TestContext = ctx) {
  const p = await c.services.projects.create({ name: `Console ${randomUUID()}` });
  return { projectId: p.project_id, key: p.api_key };
}

async function addOperator(projectId: string, role: OperatorRole, c: TestContext = ctx) {
  const email = `${role}-${randomUUID()}@example.com`;
  const operator = await c.services.operators.add({ projectId, email, role, password: PASSWORD });
  return { ...operator, email };
}

const login = (email: string, password = PASSWORD, c: TestContext = ctx) =>
  request(c.app).post('/console/login').set('x-forwarded-for', '90.1.2.3').send({ email, password });

/** Signs in; the cookie to send back and the session's CSRF token. */
async function signIn(email: string, c: TestContext = ctx) {
  const res = await login(email, PASSWORD, c);
  expect(res.status).toBe(200);
  const setCookie = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
  const cookie = setCookie[0]!.split(';')[0]!;
  return { cookie, csrf: (res.body as ConsoleSession).csrf_token, body: res.body as ConsoleSession, setCookie };
}

async function operatorOf(role: OperatorRole, projectId?: string) {
  const project = projectId ? { projectId, key: '' } : await newProject();
  const op = await addOperator(project.projectId, role);
  return { ...project, ...op, ...(await signIn(op.email)) };
}

describe('consoleLogin', () => {
  test('when the email and password are right, then a Secure HttpOnly SameSite=Strict __Host- cookie and a CSRF token, and only the token’s hash is stored', async () => {
    const { projectId } = await newProject();
    const op = await addOperator(projectId, 'viewer');
    const s = await signIn(op.email.toUpperCase());
    expect(s.body.operator).toEqual({
      id: op.id,
      project_id: projectId,
      email: op.email,
      role: 'viewer',
      created_at: TEST_NOW,
    });
    expect(s.body.expires_at).toBe(new Date(Date.parse(TEST_NOW) + 12 * 3_600_000).toISOString());
    const flags = s.setCookie[0]!.split(';').map((f) => f.trim());
    expect(s.cookie).toMatch(/^__Host-tg_session=[A-Za-z0-9_-]{43}$/);
    expect(flags).toEqual(expect.arrayContaining(['Path=/', 'HttpOnly', 'Secure', 'SameSite=Strict']));
    expect(flags.some((f) => f.startsWith('Domain='))).toBe(false);
    const token = s.cookie.split('=')[1]!;
    const rows = await ctx.testDb.db('console_sessions').where({ operator_id: op.id });
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(token);
    const stored = await ctx.testDb.db('operators').where({ id: op.id }).first();
    expect(stored.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(stored.password_hash).not.toContain(PASSWORD);
  });

  test('when the password is wrong, the email unknown or the operator disabled, then the same 401 and no session', async () => {
    const { projectId } = await newProject();
    const op = await addOperator(projectId, 'admin');
    const disabled = await addOperator(projectId, 'admin');
    await ctx.services.operators.disable(disabled.email);
    const answers = [
      await login(op.email, 'not the password at all'),
      await login(`nobody-${randomUUID()}@example.com`),
      await login(disabled.email),
    ];
    for (const res of answers) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ statusCode: 401, message: 'Wrong email or password' });
      expect(res.headers['set-cookie']).toBeUndefined();
    }
    expect(await ctx.testDb.db('console_sessions').whereIn('operator_id', [op.id, disabled.id])).toEqual([]);
  });

  test('when the body lacks the password, then a 400 naming it', async () => {
    const res = await request(ctx.app).post('/console/login').send({ email: 'a@example.com' });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/password/);
  });
});

describe('logs', () => {
  test('when an operator signs in, reads, acts and signs out, then no log line holds the password, the session token or the CSRF token', async () => {
    const s = await operatorOf('admin');
    await login(s.email, 'a wrong password for the log');
    await request(ctx.app).patch('/project').set('cookie', s.cookie).send({ decision_threshold: 0.75 });
    await request(ctx.app).get('/console/me').set('cookie', s.cookie);
    await request(ctx.app).post('/console/logout').set('cookie', s.cookie).set('x-csrf-token', s.csrf);
    const logged = JSON.stringify(ctx.logs);
    expect(ctx.logs.length).toBeGreaterThan(0);
    for (const secret of [PASSWORD, 'a wrong password for the log', s.cookie.split('=')[1]!, s.csrf, s.email])
      expect(logged).not.toContain(secret);
  });
});

describe('consoleLogin throttling', () => {
  let limited: TestContext;
  beforeAll(async () => {
    limited = await makeTestContext({
      trustProxy: 'loopback',
      consoleLoginLimitPerAccount: 3,
      consoleLoginLimitPerIp: 5,
    });
  });
  afterAll(() => limited.close());

  const attempt = (email: string, ip: string, password = PASSWORD) =>
    request(limited.app).post('/console/login').set('x-forwarded-for', ip).send({ email, password });

  test('when one email has failed its limit in the minute, then 429 with Retry-After even with the right password, from any address', async () => {
    const { projectId } = await newProject(limited);
    const op = await addOperator(projectId, 'viewer', limited);
    for (let i = 0; i < 3; i++) expect((await attempt(op.email, freshIp(), 'wrong password')).status).toBe(401);
    const res = await attempt(op.email, freshIp());
    expect(res.status).toBe(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(res.body.message).toMatch(/sign-in attempts for this account/);
    limited.clock.advance(60_000);
    expect((await attempt(op.email, freshIp())).status).toBe(200);
  });

  test('when one address has tried its limit of emails, then 429 for the next, known or not', async () => {
    const { projectId } = await newProject(limited);
    const op = await addOperator(projectId, 'viewer', limited);
    const ip = freshIp();
    for (let i = 0; i < 5; i++) expect((await attempt(`guess-${i}@example.com`, ip)).status).toBe(401);
    const res = await attempt(op.email, ip);
    expect(res.status).toBe(429);
    expect(res.body.message).toMatch(/for this address/);
  });
});

describe('getConsoleSession', () => {
  test('when the cookie is sent, then the operator and the same CSRF token; without it, 401', async () => {
    const s = await operatorOf('analyst');
    const me = await request(ctx.app).get('/console/me').set('cookie', s.cookie);
    expect(me.status).toBe(200);
    expect(me.body).toEqual(s.body);
    expect((await request(ctx.app).get('/console/me')).status).toBe(401);
    expect((await request(ctx.app).get('/console/me').set('cookie', '__Host-tg_session=unknown')).status).toBe(401);
  });

  test('when the session is past its end, or unused for the idle time, then 401 and it is deleted', async () => {
    const ended = await operatorOf('viewer');
    ctx.clock.advance(12 * 3_600_000);
    expect((await request(ctx.app).get('/console/me').set('cookie', ended.cookie)).status).toBe(401);
    expect(await ctx.testDb.db('console_sessions').where({ operator_id: ended.id })).toEqual([]);

    const idle = await operatorOf('viewer');
    ctx.clock.advance(59 * 60_000);
    expect((await request(ctx.app).get('/console/me').set('cookie', idle.cookie)).status).toBe(200);
    ctx.clock.advance(59 * 60_000); // used 59 minutes ago: still on
    expect((await request(ctx.app).get('/console/me').set('cookie', idle.cookie)).status).toBe(200);
    ctx.clock.advance(60 * 60_000);
    expect((await request(ctx.app).get('/console/me').set('cookie', idle.cookie)).status).toBe(401);
  });

  test('when the operator is disabled, then its sessions end at once', async () => {
    const s = await operatorOf('admin');
    await ctx.services.operators.disable(s.email);
    expect((await request(ctx.app).get('/project').set('cookie', s.cookie)).status).toBe(401);
  });
});

describe('consoleLogout', () => {
  test('when sent without the CSRF token, then 403 and the session goes on; with it, 204 and the cookie no longer works', async () => {
    const s = await operatorOf('viewer');
    const refused = await request(ctx.app).post('/console/logout').set('cookie', s.cookie);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ statusCode: 403, message: 'Missing or wrong x-csrf-token header' });
    const out = await request(ctx.app).post('/console/logout').set('cookie', s.cookie).set('x-csrf-token', s.csrf);
    expect(out.status).toBe(204);
    expect(String(out.headers['set-cookie'])).toMatch(/^__Host-tg_session=;.*Expires=Thu, 01 Jan 1970/);
    expect((await request(ctx.app).get('/console/me').set('cookie', s.cookie)).status).toBe(401);
  });
});

describe('authorisation of operators', () => {
  /** PATCH /project with the cookie, and the session's CSRF token unless another (null: none) is given. */
  const patchProject = (s: { cookie: string; csrf: string }, csrf: string | null = s.csrf) => {
    const req = request(ctx.app).patch('/project').set('cookie', s.cookie);
    return (csrf === null ? req : req.set('x-csrf-token', csrf)).send({ decision_threshold: 0.7 });
  };

  test('when a viewer reads, then 200; when it acts, then 403 naming the role, and nothing changes', async () => {
    const s = await operatorOf('viewer');
    const project = await request(ctx.app).get('/project').set('cookie', s.cookie);
    expect(project.status).toBe(200);
    expect(project.body.project_id).toBe(s.projectId);
    expect((await request(ctx.app).get('/audit').set('cookie', s.cookie)).status).toBe(200);
    const patched = await patchProject(s);
    expect(patched.status).toBe(403);
    expect(patched.body.message).toBe('updateProject needs the admin role; this operator is a viewer');
    const label = await request(ctx.app)
      .post('/account/someone/label')
      .set('cookie', s.cookie)
      .set('x-csrf-token', s.csrf)
      .send({ label: 'fraud' });
    expect(label.status).toBe(403);
    const list = await request(ctx.app)
      .post('/list/watch')
      .set('cookie', s.cookie)
      .set('x-csrf-token', s.csrf)
      .send({});
    expect(list.status).toBe(403);
    expect((await ctx.services.projects.list()).find((p) => p.project_id === s.projectId)?.decision_threshold).toBe(
      0.8,
    );
  });

  test('when an analyst labels an account and changes a list membership, then it may; rules and settings are refused', async () => {
    const { projectId, key } = await newProject();
    await scenario(ctx, key, projectId).signIn({ id: 'labelled-1' }, {}, freshIp());
    const s = await operatorOf('analyst', projectId);
    const label = await request(ctx.app)
      .post('/account/labelled-1/label')
      .set('cookie', s.cookie)
      .set('x-csrf-token', s.csrf)
      .send({ label: 'fraud' });
    expect(label.status).toBe(201);
    expect(label.body.actor).toBe(`operator:${s.id}`);
    const added = await request(ctx.app)
      .post('/list/block/account/labelled-1')
      .set('cookie', s.cookie)
      .set('x-csrf-token', s.csrf);
    expect(added.status).toBe(200);
    const rules = await request(ctx.app)
      .put('/rules')
      .set('cookie', s.cookie)
      .set('x-csrf-token', s.csrf)
      .send({ rules: [] });
    expect(rules.status).toBe(403);
    expect(rules.body.message).toBe('putRules needs the admin role; this operator is an analyst');
    expect((await patchProject(s)).status).toBe(403);
    expect((await request(ctx.app).get('/rules').set('cookie', s.cookie)).status).toBe(200);
  });

  test('when an admin changes the settings, then the audit names the operator as the actor', async () => {
    const s = await operatorOf('admin');
    expect((await patchProject(s)).status).toBe(200);
    const audit = await request(ctx.app).get('/audit').set('cookie', s.cookie);
    const [event] = audit.body.events as AuditEvent[];
    expect(event).toMatchObject({ actor: `operator:${s.id}`, action: 'project.updated' });
  });

  test('when an admin puts rules, then 403 pointing to drafts; publishing an analyst’s draft is audited with the admin as the actor', async () => {
    const s = await operatorOf('admin');
    const put = await request(ctx.app)
      .put('/rules')
      .set('cookie', s.cookie)
      .set('x-csrf-token', s.csrf)
      .send({ expected_version: 0, rules: [] });
    expect(put.status).toBe(403);
    expect(put.body.message).toContain('POST /rules/drafts');
    const analyst = await operatorOf('analyst', s.projectId);
    const draft = await request(ctx.app)
      .post('/rules/drafts')
      .set('cookie', analyst.cookie)
      .set('x-csrf-token', analyst.csrf)
      .send({ base_version: 0, rules: [] });
    expect(draft.status).toBe(201);
    const published = await request(ctx.app)
      .post(`/rules/drafts/${draft.body.draft.draft_id}/publish`)
      .set('cookie', s.cookie)
      .set('x-csrf-token', s.csrf);
    expect(published.status).toBe(200);
    expect(published.body.draft.published_version).toBe(1);
    const audit = await request(ctx.app).get('/audit').set('cookie', s.cookie);
    const [event] = audit.body.events as AuditEvent[];
    expect(event).toMatchObject({
      actor: `operator:${s.id}`,
      action: 'rules.published',
      changes: expect.arrayContaining([{ field: 'rules_version', before: 0, after: 1 }]),
    });
  });

  test('when the CSRF token is missing, wrong or another session’s, then 403 and nothing changes', async () => {
    const s = await operatorOf('admin');
    const other = await signIn(s.email);
    expect(other.csrf).not.toBe(s.csrf);
    for (const csrf of [null, 'wrong', other.csrf]) {
      const res = await patchProject(s, csrf);
      expect(res.status).toBe(403);
      expect(res.body.message).toBe('Missing or wrong x-csrf-token header');
    }
    const audit = await request(ctx.app).get('/audit').set('cookie', s.cookie);
    expect(audit.body.events).toEqual([]);
  });

  test('when an operator of one project names another project’s account, then it is not found there', async () => {
    const a = await newProject();
    await scenario(ctx, a.key, a.projectId).signIn({ id: 'tenant-a-account' }, {}, freshIp());
    expect((await request(ctx.app).get('/account/tenant-a-account').set('x-api-key', a.key)).status).toBe(200);
    const b = await operatorOf('admin');
    const read = await request(ctx.app).get('/account/tenant-a-account').set('cookie', b.cookie);
    expect(read.status).toBe(400);
    expect(read.body.message).toBe('Account not found');
    const label = await request(ctx.app)
      .post('/account/tenant-a-account/label')
      .set('cookie', b.cookie)
      .set('x-csrf-token', b.csrf)
      .send({ label: 'fraud' });
    expect(label.status).toBe(404);
    expect((await request(ctx.app).get('/project').set('cookie', b.cookie)).body.project_id).toBe(b.projectId);
  });

  test('when an admin sends the cookie to an evaluation, then 401: evaluations take API keys only', async () => {
    const s = await operatorOf('admin');
    const res = await request(ctx.app)
      .post('/session/unauthenticated')
      .set('cookie', s.cookie)
      .set('x-csrf-token', s.csrf)
      .send({ session_id: randomUUID() });
    expect(res.status).toBe(401);
    expect(res.body.message).toBe("'x-api-key' header required");
  });

  test('when a request carries an API key and a cookie, then the key decides', async () => {
    const s = await operatorOf('viewer');
    const other = await newProject();
    const res = await request(ctx.app).get('/project').set('cookie', s.cookie).set('x-api-key', other.key);
    expect(res.body.project_id).toBe(other.projectId);
    const wrongKey = await request(ctx.app).get('/project').set('cookie', s.cookie).set('x-api-key', 'tg_unknown');
    expect(wrongKey.status).toBe(401);
  });
});

/** Every operation of the contract that changes something and needs more than a viewer, with a valid request from the spec's examples. */
function actionsAboveViewer() {
  type Op = {
    operationId: string;
    security?: Record<string, string[]>[];
    requestBody?: { content?: Record<string, { examples?: Record<string, { value?: unknown; $ref?: string }> }> };
  };
  const spec = bundledSpec() as unknown as {
    security: Record<string, string[]>[];
    paths: Record<string, Record<string, Op>>;
    components: { examples: Record<string, { value?: unknown }> };
  };
  return Object.entries(spec.paths).flatMap(([path, item]) =>
    (['post', 'put', 'patch', 'delete'] as const).flatMap((method) => {
      const op = item[method];
      const required = op && (OPERATION_ROLES as Record<string, string>)[op.operationId];
      if (!op || (required !== 'analyst' && required !== 'admin')) return [];
      const first = Object.values(op.requestBody?.content?.['application/json']?.examples ?? {})[0];
      const example = first?.$ref ? spec.components.examples[first.$ref.split('/').pop()!]?.value : first?.value;
      const body = (example ?? {}) as Record<string, unknown>;
      const target = path
        .replace('{account_id}', typeof body.id === 'string' ? body.id : 'someone')
        .replace('{list_name}', path.includes('/account/') ? 'block' : 'watch')
        .replace('{request_id}', randomUUID())
        .replace('{draft_id}', randomUUID())
        .replace('{case_id}', randomUUID());
      // An operation that takes no console session (the evaluations, the verifications) answers 401 to a cookie.
      const takesCookie = (op.security ?? spec.security).some((s) => 'ConsoleSession' in s);
      return [{ operationId: op.operationId, method, target, body: example, required, takesCookie }];
    }),
  );
}

/** What an action could change in the project: every row of the tables the actions write, but the console's own sessions and the rate limits. */
async function stateOf(projectId: string) {
  const db = ctx.testDb.db;
  const rows = (table: string, order: string) => db(table).where({ project_id: projectId }).orderBy(order);
  return {
    project: await db('projects').where({ id: projectId }),
    accounts: await rows('accounts', 'id'),
    lists: await rows('lists', 'name'),
    members: await rows('list_members', 'account_id'),
    labels: await rows('labels', 'account_id'),
    rules: await rows('project_rules', 'version'),
    drafts: await rows('rule_drafts', 'id'),
    audit: await rows('audit_events', 'seq'),
    webhooks: await rows('webhooks', 'request_id'),
    sessions: await rows('sessions', 'id'),
    verifications: await rows('verification_sessions', 'id'),
  };
}

describe('every action against the roles below it', () => {
  const actions = actionsAboveViewer();
  test('when the contract is read, then the actions are the ones the console offers and more', () => {
    expect(actions.map((a) => a.operationId)).toEqual(
      expect.arrayContaining([
        'labelAccount',
        'addAccountToList',
        'deleteAccount',
        'putRules',
        'replayWebhookDelivery',
      ]),
    );
  });

  test.each(actions.map((a) => [a.operationId, a] as const))(
    'when %s is sent with a valid request by each role below the one it needs, then 403 naming the role (401 where a cookie is no credential), and nothing is written',
    async (_id, action) => {
      const { projectId, key } = await newProject();
      await scenario(ctx, key, projectId).signIn({ id: 'someone' }, {}, freshIp());
      const below = OPERATOR_ROLES.slice(0, OPERATOR_ROLES.indexOf(action.required as OperatorRole));
      for (const role of below) {
        const s = await operatorOf(role, projectId);
        const before = await stateOf(projectId);
        const req = request(ctx.app)[action.method](action.target).set('cookie', s.cookie).set('x-csrf-token', s.csrf);
        const res = await (action.body === undefined ? req : req.send(action.body as object));
        if (action.takesCookie) {
          expect({ role, status: res.status, message: res.body.message }).toEqual({
            role,
            status: 403,
            message: `${action.operationId} needs the ${action.required} role; this operator is ${role === 'analyst' ? 'an' : 'a'} ${role}`,
          });
        } else {
          expect({ role, status: res.status }).toEqual({ role, status: 401 });
        }
        await expect(stateOf(projectId)).resolves.toEqual(before);
      }
    },
  );
});

describe('read-only API keys', () => {
  test('when a read-only key reads, then 200; when it writes, then 403 and nothing changes; a full key still writes', async () => {
    const { projectId, key } = await newProject();
    const readOnly = await ctx.services.projects.addKey(projectId, 'read_only');
    expect((await request(ctx.app).get('/project').set('x-api-key', readOnly.api_key)).status).toBe(200);
    const patched = await request(ctx.app)
      .patch('/project')
      .set('x-api-key', readOnly.api_key)
      .send({ decision_threshold: 0.6 });
    expect(patched.status).toBe(403);
    expect(patched.body.message).toBe('This API key is read-only; only GET requests are allowed');
    const evaluated = await request(ctx.app)
      .post('/session/unauthenticated')
      .set('x-api-key', readOnly.api_key)
      .send({ session_id: randomUUID() });
    expect(evaluated.status).toBe(403);
    const full = await request(ctx.app).patch('/project').set('x-api-key', key).send({ decision_threshold: 0.6 });
    expect(full.status).toBe(200);
    expect(full.body.decision_threshold).toBe(0.6);
  });

  test('when a cached read-only key is used again, then its scope comes from the key cache: no statement on the key tables, still refused on writes', async () => {
    const { projectId } = await newProject();
    const { api_key } = await ctx.services.projects.addKey(projectId, 'read_only');
    expect((await request(ctx.app).get('/project').set('x-api-key', api_key)).status).toBe(200);
    const sent = await statementsDuring(ctx.testDb.db, async () => {
      expect((await request(ctx.app).get('/project').set('x-api-key', api_key)).status).toBe(200);
      const refused = await request(ctx.app).patch('/project').set('x-api-key', api_key).send({ name: 'Renamed' });
      expect(refused.status).toBe(403);
    });
    expect(sent.map((st) => st.sql).filter((sql) => /\b(api_keys|projects)\b/.test(sql))).toEqual([]);
  });
});

describe('the insecure cookie for plain-http development', () => {
  test('when CONSOLE_INSECURE_COOKIE is on, then the cookie is tg_session without Secure, and it signs in', async () => {
    const dev = await makeTestContext({ consoleInsecureCookie: true });
    try {
      const { projectId } = await newProject(dev);
      const op = await addOperator(projectId, 'viewer', dev);
      const s = await signIn(op.email, dev);
      expect(s.cookie).toMatch(/^tg_session=/);
      expect(s.setCookie[0]).not.toMatch(/Secure/);
      expect((await request(dev.app).get('/console/me').set('cookie', s.cookie)).status).toBe(200);
      // The secure name is not read in this mode (nor the insecure one in the other).
      const secureName = `__Host-tg_session=${s.cookie.split('=')[1]}`;
      expect((await request(dev.app).get('/console/me').set('cookie', secureName)).status).toBe(401);
      expect((await request(ctx.app).get('/console/me').set('cookie', s.cookie)).status).toBe(401);
    } finally {
      await dev.close();
    }
  });
});
