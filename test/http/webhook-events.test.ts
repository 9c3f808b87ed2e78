/**
 * Webhook subscriptions (`webhook_events`) and the list events through HTTP with a real
 * database: a list change through the List or Account API queues `list.account_added` /
 * `list.account_removed` in its transaction for a subscribed project with a webhook URL, the
 * dispatcher delivers it signed to a real local receiver, and the client's verifyWebhook
 * accepts it (with either secret during a rotation's grace period). Nothing is queued for a
 * project that is not subscribed or has no URL, or for a change that changes nothing; an
 * evaluation (authenticate's lists, rules' list actions) queues the same events in its own
 * transaction, decided by the rows it changes; a
 * project unsubscribed from a verification event ends its sessions without that webhook.
 */
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { verifyWebhook } from '../../packages/client/src';
import type { ListAccountAdded, ListAccountRemoved, SubscribableEventType } from '../../src/api-types';
import { makeTestContext, TEST_NOW, type TestContext } from '../helpers/app';
import { scenario } from '../helpers/evaluation';
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
  return `90.${200 + Math.floor(n / 250)}.${n % 250}.40`;
}

const LIST_EVENTS: SubscribableEventType[] = ['list.account_added', 'list.account_removed'];

async function newProject(options: { events?: SubscribableEventType[]; url?: boolean } = {}) {
  const p = await ctx.services.projects.create({
    name: `Events ${randomUUID()}`,
    webhookUrl: options.url === false ? null : rx.url,
  });
  const key = p.api_key;
  if (options.events)
    expect(
      (await request(ctx.app).patch('/project').set('x-api-key', key).send({ webhook_events: options.events })).status,
    ).toBe(200);
  const sc = scenario(ctx, key, p.project_id);
  return {
    key,
    projectId: p.project_id,
    secret: p.webhook_secret,
    account: (id: string) => sc.signIn({ id }, {}, freshIp()),
    add: (list: string, id: string) => request(ctx.app).post(`/list/${list}/account/${id}`).set('x-api-key', key),
    remove: (list: string, id: string) => request(ctx.app).delete(`/list/${list}/account/${id}`).set('x-api-key', key),
    put: (id: string, body: Record<string, unknown>) =>
      request(ctx.app)
        .put(`/account/${id}`)
        .set('x-api-key', key)
        .send({ id, ...body }),
    /** The project's queued webhooks, oldest first. */
    queued: async () =>
      (await ctx.services.repos.outbox.list({ limit: 1000 })).filter((w) => w.projectId === p.project_id).reverse(),
    /** Delivers what is due and returns this project's deliveries, verified and checked against webhooks.yaml. */
    async delivered(secrets: string | string[] = p.webhook_secret) {
      await deliverDue(ctx);
      const mine = rx.received.filter((d) => JSON.parse(d.body).project_id === p.project_id);
      const events: (ListAccountAdded | ListAccountRemoved)[] = [];
      for (const d of mine) {
        const event = verifyWebhook(d.body, d.headers, secrets, { now: ctx.clock.now() });
        expect(await validateWebhookBody(event)).toEqual([]);
        expect(d.headers['x-event-type']).toBe(event.event_type);
        expect(d.headers['x-event-id']).toBe(event.request_id);
        if (event.event_type !== 'list.account_added' && event.event_type !== 'list.account_removed')
          throw new Error(`not a list event: ${event.event_type}`);
        events.push(event as ListAccountAdded | ListAccountRemoved);
      }
      return events;
    },
  };
}

const brief = (e: ListAccountAdded | ListAccountRemoved) => `${e.event_type} ${e.data.list_name} ${e.data.account_id}`;

describe('list events', () => {
  test('when a subscribed project adds an account to a list, then a signed list.account_added is delivered and verifies', async () => {
    const p = await newProject({ events: LIST_EVENTS });
    await p.account('hooked-1');
    ctx.clock.advance(5000);
    const res = await p.add('vip', 'hooked-1');
    expect(res.status).toBe(200);
    const events = await p.delivered();
    expect(events).toEqual([
      {
        request_id: expect.any(String),
        project_id: p.projectId,
        event_type: 'list.account_added',
        occurred_at: new Date(Date.parse(TEST_NOW) + 5000).toISOString(),
        data: { list_name: 'vip', account_id: 'hooked-1', actor: expect.stringMatching(/^api_key:[0-9a-f]{12}$/) },
      },
    ]);
    expect(JSON.stringify(events)).not.toContain(p.key);
    expect((await p.queued()).map((w) => w.status)).toEqual(['delivered']);
  });

  test('when an account moves between standard lists, is removed, or is put with lists, then each change is one event', async () => {
    const p = await newProject({ events: LIST_EVENTS });
    await p.account('mover');
    expect((await p.add('allow', 'mover')).status).toBe(200);
    expect((await p.add('block', 'mover')).status).toBe(200);
    expect((await p.remove('block', 'mover')).status).toBe(200);
    expect((await p.put('mover', { lists: ['main_account', 'vip'] })).status).toBe(200);
    // Delivered concurrently: in no particular order (receivers order by occurred_at).
    const events = await p.delivered();
    expect(events.map(brief).sort()).toEqual([
      'list.account_added allow mover',
      'list.account_added block mover',
      'list.account_added main_account mover',
      'list.account_added vip mover',
      'list.account_removed allow mover',
      'list.account_removed block mover',
    ]);
    expect(new Set(events.map((e) => e.request_id)).size).toBe(events.length);
  });

  test('when the change changes nothing or is refused, then nothing is queued', async () => {
    const p = await newProject({ events: LIST_EVENTS });
    await p.account('same');
    expect((await p.add('vip', 'same')).status).toBe(200);
    expect(await p.queued()).toHaveLength(1);
    expect((await p.add('vip', 'same')).status).toBe(200);
    expect((await p.put('same', { lists: ['vip'] })).status).toBe(200);
    expect((await p.remove('block', 'same')).status).toBe(400);
    expect((await p.add('vip', 'nobody')).status).toBe(400);
    expect(await p.queued()).toHaveLength(1);
  });

  test('when the project is not subscribed, is subscribed to one event only, or has no webhook URL, then only what it wants is queued', async () => {
    const unsubscribed = await newProject();
    await unsubscribed.account('quiet');
    expect((await unsubscribed.add('block', 'quiet')).status).toBe(200);
    expect((await unsubscribed.remove('block', 'quiet')).status).toBe(200);
    expect(await unsubscribed.queued()).toEqual([]);

    const noUrl = await newProject({ events: LIST_EVENTS, url: false });
    await noUrl.account('quiet');
    expect((await noUrl.add('block', 'quiet')).status).toBe(200);
    expect(await noUrl.queued()).toEqual([]);

    const addsOnly = await newProject({ events: ['list.account_added'] });
    await addsOnly.account('half');
    expect((await addsOnly.add('allow', 'half')).status).toBe(200);
    expect((await addsOnly.add('block', 'half')).status).toBe(200);
    expect((await addsOnly.remove('block', 'half')).status).toBe(200);
    expect((await addsOnly.delivered()).map(brief).sort()).toEqual([
      'list.account_added allow half',
      'list.account_added block half',
    ]);
  });

  test('when the webhook secret was just rotated, then a list event verifies with the new secret and with the previous one', async () => {
    const p = await newProject({ events: LIST_EVENTS });
    await p.account('rotated');
    const rotated = await request(ctx.app).post('/project/webhook-secret').set('x-api-key', p.key);
    expect(rotated.status).toBe(200);
    expect((await p.add('vip', 'rotated')).status).toBe(200);
    expect(await p.delivered(rotated.body.webhook_secret)).toHaveLength(1);
    expect(await p.delivered(p.secret)).toHaveLength(1);
  });
});

describe('list events of evaluations', () => {
  const apiKeyActor = expect.stringMatching(/^api_key:[0-9a-f]{12}$/);
  const actors = (events: (ListAccountAdded | ListAccountRemoved)[]) =>
    Object.fromEntries(events.map((e) => [brief(e), e.data.actor]));
  /** Matches every evaluation of the test sessions: takes the account off vip, puts it on review. */
  const REVIEW = {
    id: 'to-review',
    when: { field: 'bot', op: 'gte', value: 0 },
    then: { add_to_lists: ['review'], remove_from_lists: ['vip'] },
  };
  const putRules = async (key: string, rules: object[]) =>
    expect((await request(ctx.app).put('/rules').set('x-api-key', key).send({ rules })).status).toBe(200);

  test('when an authenticate gives lists, then each membership it changes is one event by its API key, and a repeat sends none', async () => {
    const p = await newProject({ events: LIST_EVENTS });
    const sc = scenario(ctx, p.key, p.projectId);
    await sc.signIn({ id: 'by-evaluation', lists: ['vip', 'block'] }, {}, freshIp());
    const first = await p.delivered();
    expect(first.map(brief).sort()).toEqual([
      'list.account_added block by-evaluation',
      'list.account_added vip by-evaluation',
    ]);
    expect(Object.values(actors(first))).toEqual([apiKeyActor, apiKeyActor]);
    expect(JSON.stringify(first)).not.toContain(p.key);

    // allow replaces block; vip stays: one added, one removed. The same again changes nothing.
    await sc.signIn({ id: 'by-evaluation', lists: ['allow'] }, {}, freshIp());
    await sc.signIn({ id: 'by-evaluation', lists: ['allow', 'vip'] }, {}, freshIp());
    const all = await p.delivered();
    expect(all.map(brief).sort()).toEqual([
      'list.account_added allow by-evaluation',
      'list.account_added block by-evaluation',
      'list.account_added vip by-evaluation',
      'list.account_removed block by-evaluation',
    ]);
    expect(new Set(all.map((e) => e.request_id)).size).toBe(all.length);
    const lists = await request(ctx.app).get('/account/by-evaluation').set('x-api-key', p.key);
    expect(lists.body.lists).toEqual(['allow', 'vip']);
  });

  test("when a rule's list actions change an account's lists, then the events name the rule; a list changed under the evaluation's feet is reported as it is", async () => {
    const p = await newProject({ events: LIST_EVENTS });
    await putRules(p.key, [REVIEW]);
    const sc = scenario(ctx, p.key, p.projectId);
    await sc.signIn({ id: 'ruled', lists: ['vip'] }, {}, freshIp());
    const events = await p.delivered();
    // The request adds vip, the rule takes it off again and adds review: three changes, in that order.
    expect(actors(events)).toEqual({
      'list.account_added vip ruled': apiKeyActor,
      'list.account_removed vip ruled': 'rule:to-review',
      'list.account_added review ruled': 'rule:to-review',
    });
    const added = events.find((e) => brief(e) === 'list.account_added vip ruled')!;
    const removed = events.find((e) => brief(e) === 'list.account_removed vip ruled')!;
    expect(added.occurred_at).toBe(removed.occurred_at);

    // Again: already on review, not on vip: the rule changes nothing, nothing is sent.
    await sc.signIn({ id: 'ruled' }, {}, freshIp());
    expect(await p.delivered()).toHaveLength(3);

    // Put on vip through the List API between evaluations: the next one's removal is reported.
    expect((await p.add('vip', 'ruled')).status).toBe(200);
    await sc.signIn({ id: 'ruled' }, {}, freshIp());
    expect((await p.delivered()).map(brief).sort()).toEqual([
      'list.account_added review ruled',
      'list.account_added vip ruled',
      'list.account_added vip ruled',
      'list.account_removed vip ruled',
      'list.account_removed vip ruled',
    ]);
  });

  test('when the project is subscribed to additions only, or to nothing, then an evaluation queues only those', async () => {
    const addsOnly = await newProject({ events: ['list.account_added'] });
    await putRules(addsOnly.key, [REVIEW]);
    await scenario(ctx, addsOnly.key, addsOnly.projectId).signIn({ id: 'half', lists: ['vip'] }, {}, freshIp());
    expect((await addsOnly.delivered()).map(brief).sort()).toEqual([
      'list.account_added review half',
      'list.account_added vip half',
    ]);

    const unsubscribed = await newProject();
    await putRules(unsubscribed.key, [REVIEW]);
    await scenario(ctx, unsubscribed.key, unsubscribed.projectId).signIn({ id: 'q', lists: ['block'] }, {}, freshIp());
    expect(await unsubscribed.queued()).toEqual([]);
  });
});

describe('verification events and webhook_events', () => {
  async function cancelled(key: string): Promise<string> {
    const created = await request(ctx.app)
      .post('/liveness/session')
      .set('x-api-key', key)
      .send({ type: 'face-match', redirect_url: 'https://shop.example.com/done' });
    expect(created.status).toBe(200);
    const token = new URL(created.body.url).searchParams.get('token')!;
    const res = await request(ctx.app).post(`/liveness/${created.body.session_id}/cancel`).query({ token });
    expect(res.status).toBe(200);
    return created.body.session_id;
  }

  test('when a project is unsubscribed from a verification event, then its sessions end without that webhook; by default they queue it', async () => {
    const unsubscribed = await newProject({ events: LIST_EVENTS });
    await cancelled(unsubscribed.key);
    expect(await unsubscribed.queued()).toEqual([]);

    const byDefault = await newProject();
    const sessionId = await cancelled(byDefault.key);
    expect((await byDefault.queued()).map((w) => [w.eventType, w.sessionId])).toEqual([
      ['verification.face-match.completed', sessionId],
    ]);
  });
});

describe('the audit of list memberships', () => {
  test('when the List or Account API changes memberships, then one account.lists_changed event per call records each, with who and the request', async () => {
    const p = await newProject();
    await p.account('audited');
    const added = await p.add('allow', 'audited');
    expect((await p.add('block', 'audited')).status).toBe(200);
    expect((await p.add('block', 'audited')).status).toBe(200); // no change: no event
    expect((await p.remove('block', 'audited')).status).toBe(200);
    expect((await p.put('audited', { lists: ['vip'] })).status).toBe(200);
    const audit = await request(ctx.app).get('/audit').set('x-api-key', p.key);
    expect(audit.status).toBe(200);
    const events = audit.body.events.filter((e: { action: string }) => e.action === 'account.lists_changed');
    expect(events.map((e: { changes: unknown }) => e.changes)).toEqual([
      [{ field: 'list', before: null, after: 'vip' }],
      [{ field: 'list', before: 'block', after: null }],
      [
        { field: 'list', before: 'allow', after: null },
        { field: 'list', before: null, after: 'block' },
      ],
      [{ field: 'list', before: null, after: 'allow' }],
    ]);
    for (const e of events) {
      expect(e.account_id).toBe('audited');
      expect(e.actor).toMatch(/^api_key:[0-9a-f]{12}$/);
    }
    expect(events.at(-1).request_id).toBe(added.body.request_id);

    // Erasing the account takes its id out of them.
    expect((await request(ctx.app).delete('/account/audited').set('x-api-key', p.key)).status).toBe(200);
    const after = await request(ctx.app).get('/audit').set('x-api-key', p.key);
    const erased = after.body.events.filter((e: { action: string }) => e.action === 'account.lists_changed');
    expect(erased).toHaveLength(4);
    for (const e of erased) expect(e.account_id).toBeUndefined();
  });
});
