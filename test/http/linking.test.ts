/**
 * Linked accounts through HTTP: one scenario per match type, with sessions posted as the SDKs
 * post them, the real IP data and a real database. Each test runs in a project of its own, and
 * every session comes from an address in a /24 of its own, so two accounts share exactly the
 * identifier the test gives them and nothing else (not even a network).
 *
 * The confidences asserted are the ones docs/scoring.md ("Linked accounts") documents.
 */
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import type { AccountInput, AuthenticateResponse, IngestSession, LinkedAccount, MatchType } from '../../src/api-types';
import { makeTestContext, TEST_NOW, type TestContext } from '../helpers/app';
import { at } from '../helpers/defined';
import { AWS_IP, personSession, scenario } from '../helpers/evaluation';
import { describeErrors, schemaValidator } from '../helpers/spec';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await makeTestContext({ trustProxy: 'loopback' });
});
afterAll(() => ctx.close());
beforeEach(() => ctx.clock.set(TEST_NOW));

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

let ips = 0;
/** A residential London address (Sky UK, an ISP) in a /24 that no other session of this file uses. */
function freshIp(): string {
  const n = ips++;
  return `90.${200 + Math.floor(n / 250)}.${n % 250}.10`;
}

type Scenario = ReturnType<typeof scenario>;

/** A new project (its own accounts, lists and history) and the scenario helpers for it. */
async function newProject(groups = false): Promise<Scenario & { apiKey: string; projectId: string }> {
  const p = await ctx.services.projects.create({ name: `Linking ${randomUUID()}`, groups });
  return Object.assign(scenario(ctx, p.api_key, p.project_id), { apiKey: p.api_key, projectId: p.project_id });
}

let people = 0;
/**
 * A complete profile whose every identifier is unique to it (email at a business domain,
 * a valid UK mobile number, name, username), so that accounts built from two profiles share
 * nothing until a test overrides one member.
 */
function profile(id: string, overrides: Partial<AccountInput> = {}): AccountInput {
  const n = ++people;
  return {
    id,
    email: `person${n}@acme-widgets.co.uk`,
    phone: `+4479111${String(10000 + n).padStart(5, '0')}`,
    first_name: `Given${n}`,
    last_name: `Family${n}`,
    username: `user_${n}`,
    expected_countries: ['GB', 'IE'],
    metadata: { plan: 'pro', n },
    ...overrides,
  };
}

/** A native iOS SDK session (no browser, no fingerprint), with the given device identifiers. */
function iosSession(mobile: { mobile_id?: string; apple_device_check?: string }): IngestSession {
  return {
    session_id: randomUUID(),
    source: 'ios',
    source_version: '2.3.0',
    device_id: randomUUID(),
    languages: ['en-GB'],
    timezone: 'Europe/London',
    screen: { width: 1179, height: 2556 },
    cpu_cores: 6,
    events: { mouse: 0, click: 3, keyboard: 24, touch: 60, clipboard: 0 },
    mobile: {
      brand: 'Apple',
      model: 'iPhone15,2',
      system_memory_gb: 6,
      boot_count: null,
      system_uptime_days: 3.5,
      battery_level: 0.62,
      languages: ['en-GB'],
      oem_app_integrity: 'passed',
      oem_device_integrity: 'passed',
      emulator: false,
      rooted: false,
      mobile_id: null,
      apple_device_check: null,
      ...mobile,
    },
  };
}

/** A web session posted from a fresh address (unless `ip` is given), then authenticated with `?accounts_linked=true`. */
async function signIn(
  s: Scenario,
  account: AccountInput,
  session: Partial<IngestSession> = {},
  ip = freshIp(),
): Promise<AuthenticateResponse> {
  return s.signIn(account, session, ip, true);
}

async function signInNative(
  s: Scenario,
  account: AccountInput,
  mobile: { mobile_id?: string; apple_device_check?: string },
): Promise<AuthenticateResponse> {
  const id = await s.ingest(iosSession(mobile), freshIp());
  return s.authenticated(id, account, true);
}

/** The LinkedAccount a profile should read as, every member the interface requires and every identifier it has. */
function linkedEntry(
  p: AccountInput,
  matchType: MatchType[],
  score: unknown = expect.any(Number),
  seen = TEST_NOW,
): LinkedAccount {
  const entry: Record<string, unknown> = {
    account_id: p.id,
    score,
    expected_countries: p.expected_countries ?? [],
    first_seen: seen,
    last_seen: seen,
    match_type: matchType,
    lists: [...(p.lists ?? [])].sort(),
    metadata: p.metadata ?? {},
  };
  for (const k of ['email', 'phone', 'first_name', 'last_name', 'username'] as const)
    if (p[k] !== undefined) entry[k] = p[k];
  return entry as unknown as LinkedAccount;
}

/** The response links exactly `p`, by exactly `matchType`, with a confidence in 0..1 (close to `score` when given). */
async function expectLinkedTo(
  r: AuthenticateResponse,
  p: AccountInput,
  matchType: MatchType,
  score?: number,
): Promise<void> {
  expect(r.accounts_linked).toBe(1);
  expect(r.linked_accounts).toHaveLength(1);
  const link = r.linked_accounts![0]!; // toHaveLength(1) above
  expect(link).toEqual(linkedEntry(p, [matchType]));
  expect(link.score).toBeGreaterThan(0);
  expect(link.score).toBeLessThanOrEqual(1);
  if (score !== undefined) expect(link.score).toBeCloseTo(score, 6);
  const validate = await schemaValidator('LinkedAccount');
  const valid = validate(link);
  expect(describeErrors(validate.errors)).toBe('');
  expect(valid).toBe(true);
}

function expectNotLinked(r: AuthenticateResponse): void {
  expect(r.accounts_linked).toBe(0);
  expect(r.linked_accounts).toEqual([]);
}

describe('one scenario per match type (POST /session/authenticate?accounts_linked=true)', () => {
  test('when two accounts share nothing, then neither is linked', async () => {
    const s = await newProject();
    expectNotLinked(await signIn(s, profile('alone-a')));
    expectNotLinked(await signIn(s, profile('alone-b')));
  });

  test("browser: the same browser instance (the SDK's stored id came back), whatever its fingerprint, links with score 1", async () => {
    const s = await newProject();
    const browser = randomUUID();
    const a = profile('browser-a', { lists: ['vip'] });
    // personSession gives every session a fingerprint of its own: only the stored id is shared.
    expectNotLinked(await signIn(s, a, { device_id: browser }));
    const r = await signIn(s, profile('browser-b'), { device_id: browser });
    await expectLinkedTo(r, a, 'browser', 1);
    expect(r.linked_accounts![0]!.lists).toEqual(['vip']); // expectLinkedTo: exactly one
  });

  test("browser: the linked account's lists are every one of its lists, in name order, whatever characters the names hold", async () => {
    const s = await newProject();
    const browser = randomUUID();
    // Names in the same order byte by byte and in any collation; a comma, quotes, a backslash, a new line.
    const lists = ['vip', 'review, "manual"\\ 2', 'watch\nlist'];
    const a = profile('browser-lists-a', { lists });
    expectNotLinked(await signIn(s, a, { device_id: browser }));
    const r = await signIn(s, profile('browser-lists-b'), { device_id: browser });
    await expectLinkedTo(r, a, 'browser', 1);
    expect(r.linked_accounts![0]!.lists).toEqual(['review, "manual"\\ 2', 'vip', 'watch\nlist']);
  });

  test('device: the same hardware fingerprint in another browser profile (another stored id) links by device, 0.8 when two accounts share it, never by browser', async () => {
    const s = await newProject();
    const fingerprint = randomUUID().replace(/-/g, '');
    const a = profile('device-a');
    expectNotLinked(await signIn(s, a, { browser_fingerprint: fingerprint }));
    await expectLinkedTo(await signIn(s, profile('device-b'), { browser_fingerprint: fingerprint }), a, 'device', 0.8);
  });

  describe('network', () => {
    test('when a residential address is shared within a day, then it is no link alone, and strengthens one a device finds', async () => {
      const s = await newProject();
      const home = freshIp();
      const fingerprint = randomUUID().replace(/-/g, '');
      const a = profile('net-a');
      expectNotLinked(await signIn(s, a, { browser_fingerprint: fingerprint }, home));
      ctx.clock.advance(5 * HOUR);
      expectNotLinked(await signIn(s, profile('net-b'), {}, home));
      ctx.clock.advance(HOUR);
      const c = profile('net-c');
      const r = await signIn(s, c, { browser_fingerprint: fingerprint }, home);
      // docs/scoring.md: the device 0.8, the address shared by 3 0.3 · 0.5^(1/3); net-b shares the address only.
      expect(r.accounts_linked).toBe(1);
      expect(at(r.linked_accounts!, 0)).toEqual(
        linkedEntry(a, ['device', 'network'], expect.closeTo(1 - 0.2 * (1 - 0.3 * 0.5 ** (1 / 3)), 6)),
      );
      // The link is seen from the other side too.
      const back = await request(ctx.app).get('/account/net-a/accounts-linked').set('x-api-key', s.apiKey);
      expect(back.status).toBe(200);
      expect(back.body.accounts_linked.map((l: LinkedAccount) => [l.account_id, l.match_type])).toEqual([
        ['net-c', ['device', 'network']],
      ]);
    });

    test('when the same address is used 3 days apart, then no link', async () => {
      const s = await newProject();
      const home = freshIp();
      const fingerprint = randomUUID().replace(/-/g, '');
      await signIn(s, profile('net-old-a'), { browser_fingerprint: fingerprint }, home);
      ctx.clock.advance(3 * DAY);
      const r = await signIn(s, profile('net-old-b'), { browser_fingerprint: fingerprint }, home);
      expect(r.linked_accounts!.map((l) => l.match_type)).toEqual([['device']]);
    });

    test('when two addresses of one /24 are used within the hour, then the block corroborates (weaker than the same address)', async () => {
      const s = await newProject();
      // freshIp() hands out x.y.z.10 in a /24 nobody else uses: the other hosts of it are free too.
      const block = freshIp().replace(/\.10$/, '');
      const fingerprint = randomUUID().replace(/-/g, '');
      const a = profile('block-a');
      expectNotLinked(await signIn(s, a, { browser_fingerprint: fingerprint }, `${block}.10`));
      ctx.clock.advance(20 * 60_000);
      const r = await signIn(s, profile('block-b'), { browser_fingerprint: fingerprint }, `${block}.77`);
      expect(r.accounts_linked).toBe(1);
      const link = at(r.linked_accounts!, 0);
      expect(link).toEqual(linkedEntry(a, ['device', 'network']));
      expect(link.score).toBeGreaterThan(0.8);
      expect(link.score).toBeLessThan(1 - 0.2 * 0.7);
      ctx.clock.advance(3 * HOUR);
      const later = await signIn(s, profile('block-c'), { browser_fingerprint: fingerprint }, `${block}.99`);
      expect(later.linked_accounts!.map((l) => l.match_type)).toEqual([['device'], ['device']]);
    });

    test("when more accounts than the network's crowd limit (16) use one address in the window, then it adds nothing", async () => {
      const s = await newProject();
      const cafe = freshIp();
      const fingerprint = randomUUID().replace(/-/g, '');
      await signIn(s, profile('crowd-net-1'), { browser_fingerprint: fingerprint }, cafe);
      for (let i = 2; i <= 15; i++) expectNotLinked(await signIn(s, profile(`crowd-net-${i}`), {}, cafe));
      const sixteenth = await signIn(s, profile('crowd-net-16'), { browser_fingerprint: fingerprint }, cafe);
      expect(sixteenth.linked_accounts!.map((l) => [l.account_id, l.match_type])).toEqual([
        ['crowd-net-1', ['device', 'network']],
      ]);
      const seventeenth = await signIn(s, profile('crowd-net-17'), { browser_fingerprint: fingerprint }, cafe);
      expect(seventeenth.linked_accounts!.map((l) => l.match_type)).toEqual([['device'], ['device']]);
    });

    test('when the shared address is a hosting network (AWS), then it is not counted', async () => {
      const s = await newProject();
      const a = await signIn(s, profile('net-aws-a'), {}, AWS_IP);
      expect(a.session.network.connection_type).toBe('hosting');
      expectNotLinked(a);
      expectNotLinked(await signIn(s, profile('net-aws-b'), {}, AWS_IP));
    });
  });

  describe('email', () => {
    test('when the addresses differ only by dots, +tag and case at Gmail, then linked by email (0.9)', async () => {
      const s = await newProject();
      const a = profile('email-a', { email: 'Jane.Doe+shop@gmail.com' });
      expectNotLinked(await signIn(s, a));
      await expectLinkedTo(await signIn(s, profile('email-b', { email: 'janedoe@gmail.com' })), a, 'email', 0.9);
      // googlemail.com is gmail.com.
      const c = await signIn(s, profile('email-c', { email: 'JANE.DOE@googlemail.com' }));
      expect(c.accounts_linked).toBe(2);
      expect(c.linked_accounts!.map((l) => [l.account_id, l.match_type])).toEqual([
        ['email-a', ['email']],
        ['email-b', ['email']],
      ]);
    });

    test('when the addresses differ only by case, then linked by email', async () => {
      const s = await newProject();
      const a = profile('email-case-a', { email: 'Sam.Smith@Acme-Widgets.co.uk' });
      expectNotLinked(await signIn(s, a));
      await expectLinkedTo(
        await signIn(s, profile('email-case-b', { email: 'sam.smith@acme-widgets.CO.UK' })),
        a,
        'email',
        0.9,
      );
    });

    test('when a business domain address differs by a dot, then no link (the provider may not ignore dots)', async () => {
      const s = await newProject();
      expectNotLinked(await signIn(s, profile('email-dot-a', { email: 'sam.smith@acme-widgets.co.uk' })));
      expectNotLinked(await signIn(s, profile('email-dot-b', { email: 'samsmith@acme-widgets.co.uk' })));
    });
  });

  test('phone: the same E.164 number links (0.85)', async () => {
    const s = await newProject();
    const a = profile('phone-a', { phone: '+447400123456' });
    expectNotLinked(await signIn(s, a));
    await expectLinkedTo(await signIn(s, profile('phone-b', { phone: '+447400123456' })), a, 'phone', 0.85);
  });

  test('username: the same handle in another case links (0.6)', async () => {
    const s = await newProject();
    const a = profile('username-a', { username: 'CoolCat_99' });
    expectNotLinked(await signIn(s, a));
    await expectLinkedTo(await signIn(s, profile('username-b', { username: 'coolcat_99' })), a, 'username', 0.6);
  });

  describe('name', () => {
    test('when first and last name match after case and accents are folded, then it is no link alone, and strengthens one a phone finds', async () => {
      const s = await newProject();
      const a = profile('name-a', { first_name: 'José', last_name: 'Núñez', phone: '+447400654321' });
      expectNotLinked(await signIn(s, a));
      expectNotLinked(await signIn(s, profile('name-b', { first_name: 'jose', last_name: 'nunez' })));
      const r = await signIn(s, profile('name-c', { first_name: 'JOSE', last_name: 'NUNEZ', phone: '+447400654321' }));
      // docs/scoring.md: the phone 0.85, the name shared by 3 0.3 · 0.5^(1/2); name-b shares the name only.
      expect(r.accounts_linked).toBe(1);
      expect(at(r.linked_accounts!, 0)).toEqual(
        linkedEntry(a, ['phone', 'name'], expect.closeTo(1 - 0.15 * (1 - 0.3 * 0.5 ** 0.5), 6)),
      );
    });

    test('when only the first name matches, then no link', async () => {
      const s = await newProject();
      expectNotLinked(await signIn(s, profile('name-first-a', { first_name: 'Maria', last_name: 'Garcia' })));
      expectNotLinked(await signIn(s, profile('name-first-b', { first_name: 'Maria', last_name: 'Lopez' })));
    });
  });

  test('mobile_id: the same vendor id on native iOS sessions links (0.85)', async () => {
    const s = await newProject();
    const vendorId = randomUUID().toUpperCase();
    const a = profile('mobile-a');
    expectNotLinked(await signInNative(s, a, { mobile_id: vendorId }));
    await expectLinkedTo(await signInNative(s, profile('mobile-b'), { mobile_id: vendorId }), a, 'mobile_id', 0.85);
  });

  test('apple_device_check: the same DeviceCheck token on native iOS sessions links (0.85)', async () => {
    const s = await newProject();
    const token = Buffer.from(randomUUID().repeat(8)).toString('base64');
    const a = profile('devicecheck-a');
    expectNotLinked(await signInNative(s, a, { apple_device_check: token }));
    await expectLinkedTo(
      await signInNative(s, profile('devicecheck-b'), { apple_device_check: token }),
      a,
      'apple_device_check',
      0.85,
    );
  });
});

describe('native apps: what each native id links as (docs/native-apps.md)', () => {
  test('when two accounts sign in on one app install (the id the app keeps in its own storage), then a browser link of 1, as for one browser instance', async () => {
    const s = await newProject();
    const install = randomUUID();
    const a = profile('install-a');
    const first = await s.ingest({ ...iosSession({}), device_id: install }, freshIp());
    expectNotLinked(await s.authenticated(first, a, true));
    const second = await s.ingest({ ...iosSession({}), device_id: install }, freshIp());
    await expectLinkedTo(await s.authenticated(second, profile('install-b'), true), a, 'browser', 1);
  });
});

describe('POST /session/unauthenticated?accounts_linked=true: the session identifiers', () => {
  test.each([
    ['browser', (v: string): Partial<IngestSession> => ({ device_id: v })],
    ['device', (v: string): Partial<IngestSession> => ({ browser_fingerprint: v })],
  ] as const)('%s: a new session is linked to the account that used the same identifier', async (type, session) => {
    const s = await newProject();
    const value = randomUUID().replace(/-/g, '');
    const a = profile(`unauth-${type}-a`);
    await signIn(s, a, session(value));
    const id = await s.ingest(personSession(session(value)), freshIp());
    const r = await s.unauthenticated(id, true);
    expect(r.accounts_linked).toBe(1);
    expect(r.linked_accounts).toEqual([linkedEntry(a, [type])]);
  });

  /** A native session posted after an account used `type` = value is linked to that account. */
  async function nativeUnauthenticated(type: 'mobile_id' | 'apple_device_check'): Promise<void> {
    const s = await newProject();
    const value = Buffer.from(randomUUID()).toString('base64');
    const a = profile(`unauth-${type}-a`);
    await signInNative(s, a, { [type]: value });
    const id = await s.ingest(iosSession({ [type]: value }), freshIp());
    const r = await s.unauthenticated(id, true);
    expect(r.accounts_linked).toBe(1);
    expect(r.linked_accounts).toEqual([linkedEntry(a, [type])]);
  }

  test('mobile_id: a new native session is linked to the account that used the same vendor id', () =>
    nativeUnauthenticated('mobile_id'));

  test('apple_device_check: a new native session is linked to the account that used the same DeviceCheck token', () =>
    nativeUnauthenticated('apple_device_check'));
});

describe('link confidence', () => {
  test('when a device (fingerprint) is shared by many accounts, then each link scores lower than a device shared by two', async () => {
    const s = await newProject();
    const pairDevice = randomUUID().replace(/-/g, '');
    await signIn(s, profile('pair-1'), { browser_fingerprint: pairDevice });
    const pair = await signIn(s, profile('pair-2'), { browser_fingerprint: pairDevice });
    expect(pair.accounts_linked).toBe(1);
    const pairScore = at(pair.linked_accounts!, 0).score;

    // Same-model machines with the same software: one fingerprint, seven browsers.
    const familyDevice = randomUUID().replace(/-/g, '');
    for (let i = 1; i <= 6; i++) await signIn(s, profile(`crowd-${i}`), { browser_fingerprint: familyDevice });
    const crowd = await signIn(s, profile('crowd-7'), { browser_fingerprint: familyDevice });
    expect(crowd.accounts_linked).toBe(6);
    expect(crowd.linked_accounts!.map((l) => l.account_id).sort()).toEqual([
      'crowd-1',
      'crowd-2',
      'crowd-3',
      'crowd-4',
      'crowd-5',
      'crowd-6',
    ]);
    for (const link of crowd.linked_accounts!) {
      expect(link.match_type).toEqual(['device']);
      expect(link.score).toBeLessThan(pairScore);
      // docs/scoring.md: a device shared by 7 accounts weighs 0.4, by 2 accounts 0.8.
      expect(link.score).toBeCloseTo(0.4, 6);
    }
    expect(pairScore).toBeCloseTo(0.8, 6);
    // More (weaker) links, but the account's multiple_accounts reflects them all.
    expect(crowd.multiple_accounts).toBeGreaterThan(0);
  });

  test('when a browser (stored id) is shared by many accounts, then every link still scores 1: it does not decay', async () => {
    const s = await newProject();
    const sharedBrowser = randomUUID();
    for (let i = 1; i <= 6; i++) await signIn(s, profile(`kiosk-${i}`), { device_id: sharedBrowser });
    const last = await signIn(s, profile('kiosk-7'), { device_id: sharedBrowser });
    expect(last.accounts_linked).toBe(6);
    for (const link of last.linked_accounts!) {
      expect(link.match_type).toEqual(['browser']);
      expect(link.score).toBe(1);
    }
  });

  test('when two accounts share two identifiers, then the link scores higher than either identifier alone', async () => {
    const s = await newProject();
    // device alone
    const d1 = randomUUID().replace(/-/g, '');
    await signIn(s, profile('only-device-a'), { browser_fingerprint: d1 });
    const deviceOnly = at((await signIn(s, profile('only-device-b'), { browser_fingerprint: d1 })).linked_accounts!, 0);
    // email alone
    await signIn(s, profile('only-email-a', { email: 'only.email@gmail.com' }));
    const emailOnly = at(
      (await signIn(s, profile('only-email-b', { email: 'onlyemail@gmail.com' }))).linked_accounts!,
      0,
    );
    // both
    const d2 = randomUUID().replace(/-/g, '');
    const a = profile('both-a', { email: 'both.of.us@gmail.com' });
    await signIn(s, a, { browser_fingerprint: d2 });
    const r = await signIn(s, profile('both-b', { email: 'bothofus@gmail.com' }), { browser_fingerprint: d2 });
    expect(r.accounts_linked).toBe(1);
    const both = at(r.linked_accounts!, 0);
    expect(both.account_id).toBe('both-a');
    expect([...both.match_type].sort()).toEqual(['device', 'email']);
    expect(deviceOnly.match_type).toEqual(['device']);
    expect(emailOnly.match_type).toEqual(['email']);
    expect(both.score).toBeGreaterThan(deviceOnly.score);
    expect(both.score).toBeGreaterThan(emailOnly.score);
    // The noisy-OR: 1 - (1 - 0.8)(1 - 0.9).
    expect(both.score).toBeCloseTo(0.98, 6);
    expect(both.score).toBeLessThanOrEqual(1);
  });
});

describe('accounts_linked and linked_accounts', () => {
  test('accounts_linked counts distinct accounts, whatever the number of shared identifiers and sessions', async () => {
    const s = await newProject();
    const device = randomUUID();
    const fingerprint = randomUUID().replace(/-/g, '');
    const a = profile('distinct-a', { username: 'sameuser' });
    await signIn(s, a, { device_id: device, browser_fingerprint: fingerprint });
    await signIn(s, a, { device_id: randomUUID() });
    const b = profile('distinct-b', { username: 'SameUser' });
    await signIn(s, b, { device_id: device });
    const r = await signIn(s, b, { device_id: device, browser_fingerprint: fingerprint });
    expect(r.accounts_linked).toBe(1);
    expect(r.linked_accounts).toHaveLength(1);
    const link = r.linked_accounts![0]!; // toHaveLength(1) above
    expect(link.account_id).toBe('distinct-a');
    expect([...link.match_type].sort()).toEqual(['browser', 'device', 'username']);
    expect(link.score).toBe(1);
  });

  test('linked_accounts is absent without ?accounts_linked=true, and accounts_linked is there', async () => {
    const s = await newProject();
    const device = randomUUID();
    await signIn(s, profile('flag-a'), { device_id: device });
    const id = await s.ingest(personSession({ device_id: device }), freshIp());
    const r = await s.authenticated(id, profile('flag-b'));
    expect(r.accounts_linked).toBe(1);
    expect(r).not.toHaveProperty('linked_accounts');
    const u = await s.unauthenticated(await s.ingest(personSession({ device_id: device }), freshIp()));
    expect(u.accounts_linked).toBe(2);
    expect(u).not.toHaveProperty('linked_accounts');
  });

  test('linked_accounts are strongest first', async () => {
    const s = await newProject();
    const device = randomUUID();
    const fingerprint = randomUUID().replace(/-/g, '');
    await signIn(s, profile('order-email', { email: 'order.me@gmail.com' }));
    await signIn(s, profile('order-device'), { browser_fingerprint: fingerprint });
    await signIn(s, profile('order-browser'), { device_id: device });
    const r = await signIn(s, profile('order-me', { email: 'orderme@gmail.com' }), {
      device_id: device,
      browser_fingerprint: fingerprint,
    });
    expect(r.accounts_linked).toBe(3);
    expect(r.linked_accounts!.map((l) => l.account_id)).toEqual(['order-browser', 'order-email', 'order-device']);
    const scores = r.linked_accounts!.map((l) => l.score);
    expect([...scores].sort((x, y) => y - x)).toEqual(scores);
  });
});

describe("the link floor (docs/scoring.md, 'When a pair is a link: the floor')", () => {
  test('when 40 accounts share a name, then none is linked by it; a name plus an email plus a device is a link', async () => {
    const s = await newProject();
    const crowd = Array.from({ length: 40 }, (_, i) =>
      profile(`smith-${i}`, { first_name: 'John', last_name: 'Smith' }),
    );
    for (const p of crowd) expectNotLinked(await signIn(s, p));
    const fingerprint = randomUUID().replace(/-/g, '');
    const a = profile('jane-a', { first_name: 'Jane', last_name: 'Quist', email: 'jane.quist@gmail.com' });
    await signIn(s, a, { browser_fingerprint: fingerprint });
    const r = await signIn(
      s,
      profile('jane-b', { first_name: 'jane', last_name: 'quist', email: 'janequist@gmail.com' }),
      {
        browser_fingerprint: fingerprint,
      },
    );
    expect(r.linked_accounts!.map((l) => [l.account_id, [...l.match_type].sort()])).toEqual([
      ['jane-a', ['device', 'email', 'name']],
    ]);
    expect(at(r.linked_accounts!, 0).score).toBeCloseTo(1 - 0.1 * 0.2 * 0.7, 6);
    // One more John Smith, with the crowd's name and nothing else: the response lists no one.
    expectNotLinked(await signIn(s, profile('smith-40', { first_name: 'JOHN', last_name: 'SMITH' })));
  });

  test('when the project raises its floor, then links under it are neither listed, counted nor scored, and the change is audited', async () => {
    const s = await newProject();
    const device = randomUUID();
    const fingerprint = randomUUID().replace(/-/g, '');
    await signIn(s, profile('floor-device'), { browser_fingerprint: fingerprint });
    await signIn(s, profile('floor-browser'), { device_id: device });
    const me = profile('floor-me');
    const before = await signIn(s, me, { device_id: device, browser_fingerprint: fingerprint });
    expect(before.linked_accounts!.map((l) => l.account_id)).toEqual(['floor-browser', 'floor-device']);

    const patched = await request(ctx.app).patch('/project').set('x-api-key', s.apiKey).send({ link_score_floor: 0.9 });
    expect(patched.status).toBe(200);
    expect(patched.body.link_score_floor).toBe(0.9);
    const audit = await request(ctx.app).get('/audit').set('x-api-key', s.apiKey);
    expect(audit.body.events[0].changes).toEqual([{ field: 'link_score_floor', before: 0.1, after: 0.9 }]);

    const after = await signIn(s, me, { device_id: device, browser_fingerprint: fingerprint });
    expect(after.accounts_linked).toBe(1);
    expect(after.linked_accounts!.map((l) => [l.account_id, l.score])).toEqual([['floor-browser', 1]]);
    // multiple_accounts from the one link left: 0.6 · 1.
    expect(after.multiple_accounts).toBeCloseTo(0.6, 3);
    const graph = await request(ctx.app).get('/account/floor-me/accounts-linked').set('x-api-key', s.apiKey);
    expect(graph.body.accounts_linked.map((l: LinkedAccount) => l.account_id)).toEqual(['floor-browser']);

    for (const wrong of [0, 0.001, 1.5, '0.5'])
      expect(
        (await request(ctx.app).patch('/project').set('x-api-key', s.apiKey).send({ link_score_floor: wrong })).status,
      ).toBe(400);
  });
});

describe('groups', () => {
  test('when groups are on, then accounts in different groups that share a device are not linked; in the same group they are', async () => {
    const s = await newProject(true);
    const device = randomUUID().replace(/-/g, '');
    const a = profile('group-a', { group: 'tenant-1' });
    expectNotLinked(await signIn(s, a, { browser_fingerprint: device }));
    expectNotLinked(await signIn(s, profile('group-b', { group: 'tenant-2' }), { browser_fingerprint: device }));
    const c = await signIn(s, profile('group-c', { group: 'tenant-1' }), { browser_fingerprint: device });
    expect(c.accounts_linked).toBe(1);
    expect(c.linked_accounts!.map((l) => l.account_id)).toEqual(['group-a']);
    expect(c.linked_accounts![0]!.match_type).toEqual(['device']); // the one above
    const other = await request(ctx.app).get('/account/group-b/accounts-linked').set('x-api-key', s.apiKey);
    expect(other.status).toBe(200);
    expect(other.body).toEqual({ request_id: expect.any(String), account_id: 'group-b', accounts_linked: [] });
  });

  test('when groups are on, then accounts in different groups that share an email are not linked', async () => {
    const s = await newProject(true);
    await signIn(s, profile('group-email-a', { group: 'tenant-1', email: 'shared@acme-widgets.co.uk' }));
    expectNotLinked(
      await signIn(s, profile('group-email-b', { group: 'tenant-2', email: 'shared@acme-widgets.co.uk' })),
    );
  });
});
