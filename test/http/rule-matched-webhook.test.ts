/**
 * `evaluation.rule_matched` through HTTP with a real database: an evaluation in which the
 * project's rules match queues the webhook in its own transaction when the project subscribes
 * to it (and has a webhook URL); the dispatcher delivers it signed to a real local receiver and
 * the client's verifyWebhook accepts it. Nothing is queued when no rule matches, when the
 * project is not subscribed, or when it has no URL, and the evaluation's statements grow only
 * by the webhook's when one is queued.
 */
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { verifyWebhook } from '../../packages/client/src';
import type { EvaluationRuleMatched, SubscribableEventType } from '../../src/api-types';
import { makeTestContext, TEST_NOW, type TestContext } from '../helpers/app';
import { statementsDuring } from '../helpers/db';
import { personSession, scenario } from '../helpers/evaluation';
import { webhookReceiver, type Receiver } from '../helpers/receiver';
import { validateWebhookBody } from '../helpers/spec';
import { deliverDue } from '../helpers/verification';

let ctx: TestContext;
let rx: Receiver;
beforeAll(async () => {
  ctx = await makeTestContext({ trustProxy: 'loopback', rateLimitStore: 'memory' });
  rx = await webhookReceiver();
});
afterAll(async () => {
  await rx.close();
  await ctx.close();
});
beforeEach(() => ctx.clock.set(TEST_NOW));

let ips = 0;
function freshIp(): string {
  const n = ips++;
  return `90.${200 + Math.floor(n / 250)}.${n % 250}.50`;
}

/** Matches every evaluation of the test sessions (iPhones on a mobile network) and decides Fake. */
const EVERY_MOBILE = {
  id: 'mobile-fake',
  when: { field: 'session.network.connection_type', op: 'in', value: ['mobile', 'isp'] },
  then: { decision: 'Fake', tags: ['mobile'] },
};
/** Matches nothing the tests send. */
const NEVER = { id: 'never', when: { field: 'bot', op: 'gt', value: 1 }, then: { tags: ['never'] } };

async function newProject(options: { events?: SubscribableEventType[]; url?: boolean; rules?: object[] } = {}) {
  const p = await ctx.services.projects.create({
    name: `Rule events ${randomUUID()}`,
    webhookUrl: options.url === false ? null : rx.url,
  });
  const key = p.api_key;
  if (options.events)
    expect(
      (await request(ctx.app).patch('/project').set('x-api-key', key).send({ webhook_events: options.events })).status,
    ).toBe(200);
  expect(
    (
      await request(ctx.app)
        .put('/rules')
        .set('x-api-key', key)
        .send({ rules: options.rules ?? [EVERY_MOBILE] })
    ).status,
  ).toBe(200);
  const sc = scenario(ctx, key, p.project_id);
  const secret = p.webhook_secret;
  return {
    projectId: p.project_id,
    sc,
    queued: async () =>
      (await ctx.services.repos.outbox.list({ limit: 1000 })).filter((w) => w.projectId === p.project_id),
    async delivered(): Promise<EvaluationRuleMatched[]> {
      await deliverDue(ctx);
      const events: EvaluationRuleMatched[] = [];
      for (const d of rx.received.filter((r) => JSON.parse(r.body).project_id === p.project_id)) {
        const event = verifyWebhook(d.body, d.headers, secret, { now: ctx.clock.now() });
        expect(await validateWebhookBody(event)).toEqual([]);
        expect(d.headers['x-event-type']).toBe('evaluation.rule_matched');
        expect(d.headers['x-event-id']).toBe(event.request_id);
        if (event.event_type !== 'evaluation.rule_matched') throw new Error(`not a rule event: ${event.event_type}`);
        events.push(event);
      }
      return events;
    },
  };
}

describe('evaluation.rule_matched', () => {
  test('when a subscribed project authenticates and a rule matches, then one signed webhook says which rule, the decision and the tags', async () => {
    const p = await newProject({ events: ['evaluation.rule_matched'] });
    const ev = await p.sc.signIn({ id: 'ruled-1' }, {}, freshIp());
    expect(ev.decision).toBe('Fake');
    const [event, ...more] = await p.delivered();
    expect(more).toEqual([]);
    expect(event).toEqual({
      request_id: expect.any(String),
      project_id: p.projectId,
      event_type: 'evaluation.rule_matched',
      occurred_at: TEST_NOW,
      data: {
        evaluation_request_id: ev.request_id,
        kind: 'authenticate',
        session_id: ev.session_id,
        account_id: 'ruled-1',
        decision: 'Fake',
        decided_by: 'mobile-fake',
        rules_version: 1,
        matched: ['mobile-fake'],
        tags: ['mobile'],
      },
    });
    expect(event!.request_id).not.toBe(ev.request_id);
  });

  test('when a subscribed project evaluates an unauthenticated session and a rule matches, then the webhook has no account', async () => {
    const p = await newProject({ events: ['evaluation.rule_matched'] });
    const sessionId = await p.sc.ingest(personSession(), freshIp());
    const ev = await p.sc.unauthenticated(sessionId);
    const [event] = await p.delivered();
    expect(event!.data).toMatchObject({
      evaluation_request_id: ev.request_id,
      kind: 'unauthenticated',
      session_id: sessionId,
      account_id: null,
      decision: 'Fake',
    });
  });

  test('when the project is not subscribed, has no URL, or no rule matches, then nothing is queued', async () => {
    const notSubscribed = await newProject({ events: ['list.account_added'] });
    await notSubscribed.sc.signIn({ id: 'quiet-1' }, {}, freshIp());
    expect(await notSubscribed.queued()).toEqual([]);

    const noUrl = await newProject({ events: ['evaluation.rule_matched'], url: false });
    await noUrl.sc.signIn({ id: 'quiet-2' }, {}, freshIp());
    expect(await noUrl.queued()).toEqual([]);

    const noMatch = await newProject({ events: ['evaluation.rule_matched'], rules: [NEVER] });
    const ev = await noMatch.sc.signIn({ id: 'quiet-3' }, {}, freshIp());
    expect(ev.rules?.matched).toEqual([]);
    expect(await noMatch.queued()).toEqual([]);
  });

  test('when an evaluation queues the webhook, then it is written by the evaluation’s own transaction and nothing else is added', async () => {
    const quiet = await newProject({ events: ['list.account_added'] });
    const loud = await newProject({ events: ['evaluation.rule_matched'] });
    const during = async (p: typeof quiet, id: string) =>
      (await statementsDuring(ctx.testDb.db, () => p.sc.signIn({ id }, {}, freshIp()))).map((q) => q.sql);
    await quiet.sc.signIn({ id: 'count-q' }, {}, freshIp());
    await loud.sc.signIn({ id: 'count-l' }, {}, freshIp());
    const withoutEvent = await during(quiet, 'count-q');
    expect(withoutEvent.length).toBeGreaterThan(0);
    const withEvent = await during(loud, 'count-l');
    // The webhook's row (and on PostgreSQL its notification), nothing else.
    expect(withEvent.length - withoutEvent.length).toBe(ctx.testDb.dialect === 'postgresql' ? 2 : 1);
    expect(withEvent.filter((sql) => /insert into [`"]?webhooks/i.test(sql))).toHaveLength(1);
    expect(withoutEvent.filter((sql) => /insert into [`"]?webhooks/i.test(sql))).toHaveLength(0);
  });
});
