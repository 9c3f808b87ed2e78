/**
 * The Project endpoints through HTTP with a real database: the settings (GET /project,
 * PATCH /project), their audit (GET /audit: who, when, before → after, newest first, by
 * cursor), refusals that write nothing, tenant isolation, and a new threshold deciding the next
 * evaluation. Response validation is on, so every answer is also checked against openapi.yaml.
 */
import { createHash, randomUUID } from 'node:crypto';
import request from 'supertest';
import { verifyWebhook } from '../../packages/client/src';
import type { AuditEvent } from '../../src/api-types';
import { DEFAULT_LINK_SCORE_FLOOR } from '../../src/domain/linking';
import { webhookHeaders } from '../../src/webhooks/signature';
import { testEvent } from '../../src/webhooks/test-event';
import { makeTestContext, TEST_NOW, type TestContext } from '../helpers/app';
import { makeChangeProbe, type ChangeProbe } from '../helpers/db-changes';
import { scenario } from '../helpers/evaluation';

let ctx: TestContext;
let probe: ChangeProbe;
beforeAll(async () => {
  ctx = await makeTestContext({ trustProxy: 'loopback', rateLimitStore: 'memory' });
  probe = await makeChangeProbe(ctx.testDb);
});
afterAll(async () => {
  await probe.close();
  await ctx.close();
});
beforeEach(() => ctx.clock.set(TEST_NOW));

let ips = 0;
/** A residential London address (Sky UK) in a /24 of its own. */
function freshIp(): string {
  const n = ips++;
  return `90.${200 + Math.floor(n / 250)}.${n % 250}.20`;
}

async function newProject(options: { groups?: boolean } = {}) {
  const p = await ctx.services.projects.create({ name: `Settings ${randomUUID()}`, groups: options.groups });
  const key = p.api_key;
  return {
    key,
    projectId: p.project_id,
    actor: `api_key:${createHash('sha256').update(key).digest('hex').slice(0, 12)}`,
    sc: scenario(ctx, key, p.project_id),
    get: () => request(ctx.app).get('/project').set('x-api-key', key),
    patch: (body: unknown) =>
      request(ctx.app)
        .patch('/project')
        .set('x-api-key', key)
        .send(body as object),
    rotate: (query = '') => request(ctx.app).post(`/project/webhook-secret${query}`).set('x-api-key', key),
    audit: (query = '') => request(ctx.app).get(`/audit${query}`).set('x-api-key', key),
  };
}

describe('GET /project', () => {
  test('when a key asks, then it gets its own project settings and no secret', async () => {
    const p = await newProject();
    const res = await p.get();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      request_id: expect.any(String),
      project_id: p.projectId,
      name: expect.stringMatching(/^Settings /),
      decision_threshold: 0.8,
      // A new project's floor is the column's default (migration 0041), DEFAULT_LINK_SCORE_FLOOR.
      link_score_floor: DEFAULT_LINK_SCORE_FLOOR,
      groups_enabled: false,
      webhook_url: null,
      test: false,
      webhook_events: ['verification.face-match.completed', 'verification.id-check.completed'],
      retention_sessions_days: null,
      retention_verification_media_days: null,
      retention_delivered_webhooks_days: null,
      created_at: TEST_NOW,
    });
    expect(JSON.stringify(res.body)).not.toMatch(/secret|whsec/i);
  });

  test('when there is no key, then 401', async () => {
    expect((await request(ctx.app).get('/project')).status).toBe(401);
  });
});

describe('PATCH /project', () => {
  test('when settings are changed, then they are returned, kept and audited with the key, the time and before → after', async () => {
    const p = await newProject();
    ctx.clock.advance(60_000);
    const res = await p.patch({
      decision_threshold: 0.5,
      webhook_url: 'https://hooks.example.com/tg',
      groups_enabled: true,
      name: '  Shop  ',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      decision_threshold: 0.5,
      webhook_url: 'https://hooks.example.com/tg',
      groups_enabled: true,
      name: 'Shop',
    });
    expect((await p.get()).body).toMatchObject({ decision_threshold: 0.5, groups_enabled: true, name: 'Shop' });
    const audit = await p.audit();
    expect(audit.status).toBe(200);
    expect(audit.body.next_cursor).toBeNull();
    expect(audit.body.events).toEqual([
      {
        id: expect.any(String),
        actor: p.actor,
        action: 'project.updated',
        request_id: res.body.request_id,
        created_at: new Date(Date.parse(TEST_NOW) + 60_000).toISOString(),
        changes: expect.arrayContaining([
          { field: 'decision_threshold', before: 0.8, after: 0.5 },
          { field: 'webhook_url', before: null, after: 'https://hooks.example.com/tg' },
          { field: 'groups_enabled', before: false, after: true },
          { field: 'name', before: expect.stringMatching(/^Settings /), after: 'Shop' },
        ]),
      },
    ]);
    expect(JSON.stringify(audit.body)).not.toContain(p.key);
    // The webhook URL can be removed again.
    expect((await p.patch({ webhook_url: null })).body.webhook_url).toBeNull();
  });

  test('when the threshold is any number from 0 to 1, then it is kept exactly', async () => {
    const p = await newProject();
    for (const t of [0.7, 0.123456789, 5e-324, 1e-100]) {
      expect((await p.patch({ decision_threshold: t })).status).toBe(200);
      expect((await p.get()).body.decision_threshold).toBe(t);
    }
  });

  test('when nothing changes, then nothing is written', async () => {
    const p = await newProject();
    const mark = await probe.mark();
    const res = await p.patch({ decision_threshold: 0.8 });
    expect(res.status).toBe(200);
    expect(await probe.writesSince(mark)).toEqual([]);
    expect((await p.audit()).body.events).toEqual([]);
  });

  test.each([
    [{}, /must NOT have fewer than 1 properties/],
    [{ decision_threshold: 1.5 }, /decision_threshold must be <= 1/],
    [{ decision_threshold: -0.1 }, /decision_threshold must be >= 0/],
    [{ decision_threshold: 'high' }, /decision_threshold must be number/],
    [{ webhook_url: 'ftp://hooks.example.com' }, /webhook_url: webhook URL must use http or https/],
    [{ webhook_url: 'not a url' }, /webhook_url: webhook URL "not a url" is not a valid URL/],
    [{ name: '   ' }, /name must not be empty once trimmed/],
    [{ api_key: 'x' }, /^api_key is not a property of the body \(it takes .*\bdecision_threshold\b.*\)$/],
    [{ webhook_secret: 'x' }, /^webhook_secret is not a property of the body \(it takes /],
    [
      { webhook_events: ['list.account_moved'] },
      /webhook_events.0 must be equal to one of the allowed values: verification.face-match.completed, verification.id-check.completed, list.account_added, list.account_removed, evaluation.rule_matched/,
    ],
    [
      { webhook_events: ['webhook.test'] },
      /webhook_events.0 must be equal to one of the allowed values: verification.face-match.completed, verification.id-check.completed, list.account_added, list.account_removed, evaluation.rule_matched/,
    ],
    [{ webhook_events: 'list.account_added' }, /webhook_events must be array/],
    [{ webhook_events: ['list.account_added', 'list.account_added'] }, /webhook_events must NOT have duplicate items/],
  ])('when the body is %j, then 400 naming the field and rule, and nothing is written', async (body, message) => {
    const p = await newProject();
    const mark = await probe.mark();
    const res = await p.patch(body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ statusCode: 400, message: expect.stringMatching(message) });
    expect(await probe.writesSince(mark)).toEqual([]);
    expect((await p.get()).body.decision_threshold).toBe(0.8);
  });

  test('when the webhook events are changed, then they are kept, returned in the registry order and audited; [] sends none', async () => {
    const p = await newProject();
    const res = await p.patch({ webhook_events: ['list.account_removed', 'list.account_added'] });
    expect(res.status).toBe(200);
    expect(res.body.webhook_events).toEqual(['list.account_added', 'list.account_removed']);
    expect((await p.get()).body.webhook_events).toEqual(['list.account_added', 'list.account_removed']);
    const audit = await p.audit();
    expect(audit.body.events).toEqual([
      expect.objectContaining({
        action: 'project.updated',
        actor: p.actor,
        changes: [
          {
            field: 'webhook_events',
            before: 'verification.face-match.completed verification.id-check.completed',
            after: 'list.account_added list.account_removed',
          },
        ],
      }),
    ]);
    expect((await p.patch({ webhook_events: [] })).body.webhook_events).toEqual([]);
    // The same list again changes nothing.
    expect((await p.patch({ webhook_events: [] })).status).toBe(200);
    expect((await p.audit()).body.events).toHaveLength(2);
  });

  test('when another setting changes, then a project that never chose its webhook events keeps the default ones', async () => {
    const p = await newProject();
    expect((await p.patch({ name: 'Renamed' })).status).toBe(200);
    const row = await ctx.testDb.db('projects').where({ id: p.projectId }).first('webhook_events');
    expect(row.webhook_events).toBeNull();
    expect((await p.get()).body.webhook_events).toEqual([
      'verification.face-match.completed',
      'verification.id-check.completed',
    ]);
  });

  test('when groups are on, then they cannot be turned off (400, nothing written), and turning them on again changes nothing', async () => {
    const p = await newProject({ groups: true });
    const mark = await probe.mark();
    const res = await p.patch({ groups_enabled: false });
    expect(res.body).toEqual({ statusCode: 400, message: 'groups_enabled cannot be turned off once on' });
    expect(await probe.writesSince(mark)).toEqual([]);
    expect((await p.patch({ groups_enabled: true })).status).toBe(200);
    expect((await p.audit()).body.events).toEqual([]);
  });

  test('when the threshold changes, then the next evaluation is decided on the new one', async () => {
    const p = await newProject();
    const first = await p.sc.signIn({ id: 'threshold-user' }, {}, freshIp());
    expect(first.decision).toBe('Real');
    expect(first.account_score).toBeLessThan(0.8);
    expect((await p.patch({ decision_threshold: 0 })).status).toBe(200);
    const second = await p.sc.signIn({ id: 'threshold-user' }, {}, freshIp());
    expect(second.decision).toBe('Fake');
    expect((await p.patch({ decision_threshold: 1 })).status).toBe(200);
    const third = await p.sc.signIn({ id: 'threshold-user' }, {}, freshIp());
    expect(third.decision).toBe('Real');
  });

  test('when another project changes its settings, then this one is untouched and sees none of its audit', async () => {
    const a = await newProject();
    const b = await newProject();
    expect((await a.patch({ decision_threshold: 0.3 })).status).toBe(200);
    expect((await b.get()).body.decision_threshold).toBe(0.8);
    expect((await b.audit()).body.events).toEqual([]);
    expect((await a.audit()).body.events).toHaveLength(1);
  });
});

describe('GET /audit', () => {
  test('when there are more events than a page, then pages follow by cursor, newest first, each event once', async () => {
    const p = await newProject();
    const thresholds = [0.1, 0.2, 0.3, 0.4, 0.5];
    for (const t of thresholds) expect((await p.patch({ decision_threshold: t })).status).toBe(200);
    const seen: AuditEvent[] = [];
    let query = '?limit=2';
    for (;;) {
      const res = await p.audit(query);
      expect(res.status).toBe(200);
      expect(res.body.events.length).toBeLessThanOrEqual(2);
      seen.push(...(res.body.events as AuditEvent[]));
      if (res.body.next_cursor === null) break;
      query = `?limit=2&cursor=${res.body.next_cursor}`;
    }
    expect(seen.map((e) => e.changes[0]!.after)).toEqual([...thresholds].reverse());
    expect(new Set(seen.map((e) => e.id)).size).toBe(5);
  });

  test('when the cursor is past every event (15 digits), then an empty last page', async () => {
    const p = await newProject();
    expect((await p.patch({ decision_threshold: 0.4 })).status).toBe(200);
    const res = await p.audit('?cursor=999999999999999');
    expect(res.status).toBe(200);
    expect(res.body.events).toHaveLength(1);
    expect((await p.audit('?cursor=1')).body).toMatchObject({ events: [], next_cursor: null });
  });

  test.each(['?limit=0', '?limit=201', '?cursor=abc', '?cursor=0', '?after=1'])(
    'when the query is %s, then 400',
    async (query) => {
      const p = await newProject();
      const res = await p.audit(query);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ statusCode: 400, message: expect.any(String) });
    },
  );
});

describe('POST /project/webhook-secret', () => {
  /** A delivery as the dispatcher signs it now, with the project's target (its secrets) at this moment. */
  async function delivery(projectId: string) {
    const target = await ctx.services.projects.webhookTarget(projectId);
    const requestId = randomUUID();
    const rawBody = JSON.stringify(testEvent(projectId, requestId, randomUUID(), ctx.clock.now()));
    const headers = webhookHeaders({
      secret: target.secret,
      previousSecret: target.previousSecret,
      requestId,
      eventType: 'webhook.test',
      rawBody,
      now: ctx.clock.now(),
    });
    return (secret: string | string[]) => {
      try {
        verifyWebhook(rawBody, headers, secret, { now: ctx.clock.now() });
        return true;
      } catch {
        return false;
      }
    };
  }

  test('when the secret is rotated with a grace period, then deliveries verify under both secrets until it ends, then under the new one only', async () => {
    const created = await ctx.services.projects.create({ name: `Rotation ${randomUUID()}` });
    const key = created.api_key;
    const old = created.webhook_secret;
    const res = await request(ctx.app).post('/project/webhook-secret?grace_period_seconds=3600').set('x-api-key', key);
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const fresh = res.body.webhook_secret as string;
    expect(fresh).toMatch(/^whsec_/);
    expect(fresh).not.toBe(old);
    expect(res.body.previous_secret_valid_until).toBe(new Date(Date.parse(TEST_NOW) + 3_600_000).toISOString());

    const during = await delivery(created.project_id);
    expect([during(old), during(fresh), during([fresh, old]), during('whsec_other')]).toEqual([
      true,
      true,
      true,
      false,
    ]);

    ctx.clock.advance(3_600_000);
    const after = await delivery(created.project_id);
    expect([after(old), after(fresh), after([fresh, old])]).toEqual([false, true, true]);

    // Audited, without a secret.
    const audit = await request(ctx.app).get('/audit').set('x-api-key', key);
    expect(audit.body.events).toEqual([
      expect.objectContaining({
        action: 'webhook_secret.rotated',
        changes: [
          {
            field: 'webhook_secret_grace_until',
            before: null,
            after: new Date(Date.parse(TEST_NOW) + 3_600_000).toISOString(),
          },
        ],
      }),
    ]);
    expect(JSON.stringify(audit.body)).not.toContain(fresh);
    expect(JSON.stringify(audit.body)).not.toContain(old);
    expect(JSON.stringify(ctx.logs)).not.toContain(fresh);
  });

  test('when no grace period is given, then it is a day; with 0, the old secret stops at once', async () => {
    const p = await newProject();
    expect((await p.rotate()).body.previous_secret_valid_until).toBe(
      new Date(Date.parse(TEST_NOW) + 86_400_000).toISOString(),
    );
    const second = await p.rotate('?grace_period_seconds=0');
    expect(second.status).toBe(200);
    expect(second.body.previous_secret_valid_until).toBeNull();
    const verify = await delivery(p.projectId);
    expect(verify(second.body.webhook_secret)).toBe(true);
    expect((await ctx.services.projects.webhookTarget(p.projectId)).previousSecret).toBeUndefined();
  });

  test.each(['?grace_period_seconds=-1', '?grace_period_seconds=604801', '?grace_period_seconds=1.5', '?x=1'])(
    'when the query is %s, then 400 and nothing is written',
    async (query) => {
      const p = await newProject();
      const before = await ctx.services.projects.webhookTarget(p.projectId);
      const mark = await probe.mark();
      const res = await p.rotate(query);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ statusCode: 400, message: expect.any(String) });
      expect(await probe.writesSince(mark)).toEqual([]);
      expect(await ctx.services.projects.webhookTarget(p.projectId)).toEqual(before);
    },
  );
});

describe('trustgate project set (the use case behind it)', () => {
  test('when the CLI changes the webhook, then the audit names `cli`', async () => {
    const p = await newProject();
    await ctx.services.projects.setWebhook(p.projectId, 'https://hooks.example.com/cli');
    const events = (await p.audit()).body.events as AuditEvent[];
    expect(events).toEqual([
      expect.objectContaining({
        actor: 'cli',
        request_id: null,
        changes: [{ field: 'webhook_url', before: null, after: 'https://hooks.example.com/cli' }],
      }),
    ]);
  });
});
