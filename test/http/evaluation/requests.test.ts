/**
 * What authenticate and unauthenticated accept and keep: expected_countries, the 24-hour
 * evaluation window, the interface's input limits (refused with a 400 naming the field, and
 * nothing written), and the accounts an unauthenticated session is linked to through its device.
 */
import type { AccountInput } from '../../../src/api-types';
import { makeTestContext, TEST_NOW, type TestContext } from '../../helpers/app';
import { personSession } from '../../helpers/evaluation';
import { freshProject, GB_IPS, HOUR_MS, storedAccount, US_IPS, withClock } from './support';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await makeTestContext({ trustProxy: 'loopback' });
});
afterEach(() => ctx.clock.set(TEST_NOW));
afterAll(() => ctx.close());

describe('expected_countries', () => {
  test('when a non-empty list is given, then it replaces the stored one; when an empty list is given or none, then the stored one stays', async () => {
    const p = await freshProject(ctx);
    const countries = async () => (await p.getAccount('traveller')).body.account.expected_countries;
    await p.signIn({ id: 'traveller', expected_countries: ['GB'] }, {}, GB_IPS.sky);
    expect(await countries()).toEqual(['GB']);
    await p.signIn({ id: 'traveller', expected_countries: ['FR', 'US'] }, {}, GB_IPS.sky);
    expect(await countries()).toEqual(['FR', 'US']);
    await p.signIn({ id: 'traveller', expected_countries: [] }, {}, GB_IPS.sky);
    expect(await countries()).toEqual(['FR', 'US']);
    await p.signIn({ id: 'traveller' }, {}, GB_IPS.sky);
    expect(await countries()).toEqual(['FR', 'US']);
  });

  test('when a new account gives none, then it has an empty list', async () => {
    const p = await freshProject(ctx);
    await p.signIn({ id: 'no-countries' }, {}, GB_IPS.sky);
    expect((await p.getAccount('no-countries')).body.account.expected_countries).toEqual([]);
  });
});

describe('the 24-hour evaluation window', () => {
  test('when 23 h 59 min have passed since the session started, then both endpoints still evaluate it', async () => {
    const p = await freshProject(ctx);
    await withClock(ctx, async () => {
      const id = await p.ingest(personSession(), GB_IPS.sky);
      ctx.clock.advance(24 * HOUR_MS - 60_000);
      expect((await p.unauthenticate(id)).status).toBe(200);
      expect((await p.authenticate(id, { id: 'just-in-time' })).status).toBe(200);
    });
  });

  test('when more than 24 hours have passed, then authenticate answers 400 "Session expired…" and writes nothing', async () => {
    const p = await freshProject(ctx);
    await withClock(ctx, async () => {
      const id = await p.ingest(personSession(), GB_IPS.sky);
      ctx.clock.advance(24 * HOUR_MS + 1000);
      const res = await p.authenticate(id, { id: 'too-late' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ statusCode: 400, message: expect.stringMatching(/^Session expired/) });
      expect((await p.getAccount('too-late')).body).toEqual({ statusCode: 400, message: 'Account not found' });
    });
  });

  test('when more than 24 hours have passed, then unauthenticated answers 400 "Session expired…"', async () => {
    const p = await freshProject(ctx);
    await withClock(ctx, async () => {
      const id = await p.ingest(personSession(), GB_IPS.sky);
      ctx.clock.advance(24 * HOUR_MS + 1000);
      const res = await p.unauthenticate(id);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ statusCode: 400, message: expect.stringMatching(/^Session expired/) });
    });
  });

  test('when an existing account is authenticated with an expired session, then the account reads the same as before', async () => {
    const p = await freshProject(ctx);
    await withClock(ctx, async () => {
      await p.signIn({ id: 'expired-existing', email: 'kept@example.com' }, {}, GB_IPS.sky);
      const before = await p.getAccount('expired-existing');
      const id = await p.ingest(personSession(), GB_IPS.sky);
      ctx.clock.advance(25 * HOUR_MS);
      const res = await p.authenticate(id, { id: 'expired-existing', email: 'changed@example.com', lists: ['block'] });
      expect(res.status).toBe(400);
      expect(storedAccount((await p.getAccount('expired-existing')).body)).toEqual(storedAccount(before.body));
    });
  });
});

describe('input limits', () => {
  const refused: [string, Record<string, unknown>, string][] = [
    ['a phone longer than 32 characters', { phone: `+${'1'.repeat(32)}` }, 'account.phone'],
    ['a phone not in E.164 form', { phone: '020 7946 0000' }, 'account.phone'],
    ['an expected country of three letters', { expected_countries: ['USA'] }, 'account.expected_countries'],
    ['a list name longer than 64 characters', { lists: ['x'.repeat(65)] }, 'account.lists'],
    ['metadata that is not an object', { metadata: 'plan=pro' }, 'account.metadata'],
  ];

  test.each(refused)(
    'when an existing account is sent with %s, then 400 naming the field and the account reads exactly the same',
    async (_what, bad, field) => {
      const p = await freshProject(ctx);
      await p.signIn(
        {
          id: 'limited',
          email: 'limited@example.com',
          phone: '+442079460000',
          expected_countries: ['GB'],
          metadata: { plan: 'free' },
        },
        {},
        GB_IPS.sky,
      );
      const before = await p.getAccount('limited');
      expect(before.status).toBe(200);
      ctx.clock.advance(60_000);
      const id = await p.ingest(personSession(), GB_IPS.sky);
      const res = await p.authenticate(id, { id: 'limited', email: 'other@example.com', ...bad } as AccountInput);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ statusCode: 400, message: expect.stringContaining(field) });
      expect(storedAccount((await p.getAccount('limited')).body)).toEqual(storedAccount(before.body));
      expect((await p.getSession(id)).body.account_ids).toEqual([]);
    },
  );

  test.each(refused)(
    'when a first authenticate is sent with %s, then 400 naming the field and the account does not exist',
    async (_what, bad, field) => {
      const p = await freshProject(ctx);
      const id = await p.ingest(personSession(), GB_IPS.sky);
      const res = await p.authenticate(id, { id: 'never-made', ...bad } as AccountInput);
      expect(res.status).toBe(400);
      expect(res.body.message).toContain(field);
      expect((await p.getAccount('never-made')).body).toEqual({ statusCode: 400, message: 'Account not found' });
      expect((await p.getSession(id)).body.account_ids).toEqual([]);
    },
  );
});

describe('unauthenticated', () => {
  test('when the session’s device (its fingerprint) was used by two other accounts in other browser profiles, then accounts_linked counts them and accounts_linked=true lists them with match_type device', async () => {
    const p = await freshProject(ctx);
    const browser_fingerprint = 'family-laptop';
    await p.signIn({ id: 'sibling-1' }, { browser_fingerprint }, GB_IPS.sky);
    await p.signIn({ id: 'sibling-2' }, { browser_fingerprint }, GB_IPS.bt);
    ctx.clock.advance(HOUR_MS);
    const id = await p.ingest(personSession({ browser_fingerprint }), US_IPS.monterey);
    const plain = await p.unauthenticated(id);
    expect(plain.accounts_linked).toBe(2);
    expect(plain.linked_accounts).toBeUndefined();
    expect(plain.multiple_accounts).toBeGreaterThan(0);
    const detailed = await p.unauthenticated(id, true);
    expect(detailed.accounts_linked).toBe(2);
    expect(detailed.linked_accounts?.map((l) => l.account_id).sort()).toEqual(['sibling-1', 'sibling-2']);
    for (const l of detailed.linked_accounts ?? []) expect(l.match_type).toEqual(['device']);
  });

  test('when the session’s device is new, then no linked accounts', async () => {
    const p = await freshProject(ctx);
    await p.signIn({ id: 'someone' }, { device_id: 'their-device' }, GB_IPS.sky);
    ctx.clock.advance(HOUR_MS);
    const id = await p.ingest(personSession({ device_id: 'a-new-device' }), US_IPS.monterey);
    const r = await p.unauthenticated(id, true);
    expect(r.accounts_linked).toBe(0);
    expect(r.linked_accounts).toEqual([]);
    expect(r.multiple_accounts).toBe(0);
  });
});
