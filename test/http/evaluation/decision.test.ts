/**
 * The decision and the lists, and groups, through POST /session/authenticate: `allow` and
 * `block` decide whatever the score, `main_account` silences multiple_accounts, custom lists
 * only label, the project's threshold decides otherwise; groups keep accounts (and their links)
 * apart. Every test has its own project.
 */
import { makeTestContext, TEST_NOW, type TestContext } from '../../helpers/app';
import { listIp, personSession } from '../../helpers/evaluation';
import { BOT, freshProject, GB_IPS, storedAccount, US_IPS } from './support';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await makeTestContext({ trustProxy: 'loopback' });
});
afterEach(() => ctx.clock.set(TEST_NOW));
afterAll(() => ctx.close());

describe('standard and custom lists', () => {
  test('when a bot’s account is on the allow list, then Real although its score is past the threshold', async () => {
    const p = await freshProject(ctx);
    const r = await p.signIn({ id: 'allowed-bot', lists: ['allow'] }, BOT, GB_IPS.sky);
    expect(r.bot).toBeGreaterThanOrEqual(0.8);
    expect(r.account_score).toBeGreaterThanOrEqual(0.8);
    expect(r.decision).toBe('Real');
    expect(r.lists).toEqual(['allow']);
  });

  test('when the same bot is on no list, then Fake', async () => {
    const p = await freshProject(ctx);
    const r = await p.signIn({ id: 'unlisted-bot' }, BOT, GB_IPS.sky);
    expect(r.account_score).toBeGreaterThanOrEqual(0.8);
    expect(r.decision).toBe('Fake');
    expect(r.lists).toEqual([]);
  });

  test('when a person’s account is on the block list, then Fake although its score is low', async () => {
    const p = await freshProject(ctx);
    const r = await p.signIn({ id: 'blocked-person', lists: ['block'] }, {}, GB_IPS.sky);
    expect(r.account_score).toBeLessThan(0.3);
    expect(r.decision).toBe('Fake');
    expect(r.lists).toEqual(['block']);
    const stored = await p.getAccount('blocked-person');
    expect(stored.body).toMatchObject({ lists: ['block'], decision: 'Fake' });
  });

  test('when an allowed account is later put on the block list, then it leaves allow and is Fake', async () => {
    const p = await freshProject(ctx);
    await p.signIn({ id: 'allow-then-block', lists: ['allow'] }, {}, GB_IPS.sky);
    const r = await p.signIn({ id: 'allow-then-block', lists: ['block'] }, {}, GB_IPS.sky);
    expect(r.lists).toEqual(['block']);
    expect(r.decision).toBe('Fake');
  });

  test('when an account with linked accounts is on main_account, then multiple_accounts is 0 while the links are still counted', async () => {
    const p = await freshProject(ctx);
    const device_id = 'shared-device-main';
    await p.signIn({ id: 'main-other' }, { device_id }, GB_IPS.sky);
    const before = await p.signIn({ id: 'main-me' }, { device_id }, GB_IPS.bt);
    expect(before.accounts_linked).toBe(1);
    expect(before.multiple_accounts).toBeGreaterThan(0);
    const after = await p.signIn({ id: 'main-me', lists: ['main_account'] }, { device_id }, GB_IPS.bt);
    expect(after.accounts_linked).toBe(1);
    expect(after.multiple_accounts).toBe(0);
    expect(after.lists).toEqual(['main_account']);
    expect(after.account_score).toBeLessThanOrEqual(before.account_score);
  });

  // openapi.yaml: the standard lists "are mutually exclusive"; applyInput has the check, and
  // authenticate applies `lists` apart from the rest of the input (src/usecases/evaluation/authenticate.ts).
  test('when account.lists holds two standard lists, then 400 naming account.lists and nothing is written', async () => {
    const p = await freshProject(ctx);
    const id = await p.ingest(personSession(), GB_IPS.sky);
    const res = await p.authenticate(id, { id: 'two-standard', lists: ['allow', 'block'] });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ statusCode: 400, message: expect.stringContaining('account.lists') });
    expect((await p.getAccount('two-standard')).body).toEqual({ statusCode: 400, message: 'Account not found' });
    expect((await p.getSession(id)).body.account_ids).toEqual([]);
  });

  test('when account.lists names custom lists, then the response lists them and the scores are those of an unlisted twin', async () => {
    const p = await freshProject(ctx);
    const twinProject = await freshProject(ctx);
    const session = { device_id: 'custom-lists-device' };
    const r = await p.signIn({ id: 'custom', lists: ['vip', 'beta:2026'] }, session, GB_IPS.sky);
    const twin = await twinProject.signIn({ id: 'custom' }, session, GB_IPS.sky);
    expect(r.lists).toEqual(['beta:2026', 'vip']);
    expect(twin.lists).toEqual([]);
    expect({
      account_score: r.account_score,
      bot: r.bot,
      risk_signals: r.risk_signals,
      multiple_accounts: r.multiple_accounts,
      decision: r.decision,
    }).toEqual({
      account_score: twin.account_score,
      bot: twin.bot,
      risk_signals: twin.risk_signals,
      multiple_accounts: twin.multiple_accounts,
      decision: twin.decision,
    });
  });
});

describe('the decision threshold', () => {
  test('when the account score is below the default threshold 0.8, then Real; at or above it, Fake', async () => {
    const p = await freshProject(ctx);
    await listIp(ctx, 'tor', '2.120.50.1');
    // Tor alone: risk_signals 0.8, account_score 1 − 0.98 · (1 − 0.8 · 0.8) ≈ 0.647.
    const tor = await p.signIn({ id: 'threshold-tor' }, {}, '2.120.50.1');
    expect(tor.account_score).toBeGreaterThan(0.6);
    expect(tor.account_score).toBeLessThan(0.8);
    expect(tor.decision).toBe('Real');
    const bot = await p.signIn({ id: 'threshold-bot' }, BOT, GB_IPS.sky);
    expect(bot.account_score).toBeGreaterThanOrEqual(0.8);
    expect(bot.decision).toBe('Fake');
  });

  test('when the project’s threshold is 0.6, then the same Tor session is Fake and a person’s is still Real', async () => {
    const p = await freshProject(ctx);
    await ctx.testDb.db('projects').where({ id: p.projectId }).update({ decision_threshold: 0.6 });
    await listIp(ctx, 'tor', '2.120.50.2');
    const tor = await p.signIn({ id: 'low-threshold-tor' }, {}, '2.120.50.2');
    expect(tor.account_score).toBeGreaterThanOrEqual(0.6);
    expect(tor.account_score).toBeLessThan(0.8);
    expect(tor.decision).toBe('Fake');
    const person = await p.signIn({ id: 'low-threshold-person' }, {}, US_IPS.monterey);
    expect(person.account_score).toBeLessThan(0.6);
    expect(person.decision).toBe('Real');
  });
});

describe('groups', () => {
  test('when groups are off and the account has a group, then 400 naming account.group and nothing is written', async () => {
    const p = await freshProject(ctx);
    const id = await p.ingest(personSession(), GB_IPS.sky);
    const res = await p.authenticate(id, { id: 'no-groups', group: 'eu' });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('account.group');
    expect((await p.getAccount('no-groups')).body).toEqual({ statusCode: 400, message: 'Account not found' });
  });

  test('when groups are on and a new account has no group, then 400 naming account.group and nothing is written', async () => {
    const p = await freshProject(ctx, { groups: true });
    const id = await p.ingest(personSession(), GB_IPS.sky);
    const res = await p.authenticate(id, { id: 'groupless' });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('account.group');
    expect((await p.getAccount('groupless')).body).toEqual({ statusCode: 400, message: 'Account not found' });
  });

  test('when an account of one group is authenticated with another group, then 400 and it keeps its group and everything else', async () => {
    const p = await freshProject(ctx, { groups: true });
    const first = await p.signIn({ id: 'mover', group: 'eu', email: 'mover@example.com' }, {}, GB_IPS.sky);
    expect(first.account.account.group).toBe('eu');
    const before = await p.getAccount('mover');
    const id = await p.ingest(personSession(), GB_IPS.sky);
    const res = await p.authenticate(id, { id: 'mover', group: 'us', email: 'moved@example.com' });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('account.group');
    const after = await p.getAccount('mover');
    expect(storedAccount(after.body)).toEqual(storedAccount(before.body));
    expect(after.body.account.group).toBe('eu');
  });

  test('when an account with a group is authenticated without one, then it keeps its group', async () => {
    const p = await freshProject(ctx, { groups: true });
    await p.signIn({ id: 'keeper', group: 'eu' }, {}, GB_IPS.sky);
    const r = await p.signIn({ id: 'keeper' }, {}, GB_IPS.sky);
    expect(r.account.account.group).toBe('eu');
    expect((await p.getAccount('keeper')).body.account.group).toBe('eu');
  });

  test('when two accounts in different groups share a device, then they are not linked', async () => {
    const p = await freshProject(ctx, { groups: true });
    const device_id = 'device-across-groups';
    await p.signIn({ id: 'group-a-1', group: 'a' }, { device_id }, GB_IPS.sky);
    const r = await p.signIn({ id: 'group-b-1', group: 'b' }, { device_id }, GB_IPS.bt, true);
    expect(r.accounts_linked).toBe(0);
    expect(r.linked_accounts).toEqual([]);
    expect(r.multiple_accounts).toBe(0);
  });

  test('when two accounts in the same group share a device, then they are linked by the device', async () => {
    const p = await freshProject(ctx, { groups: true });
    const browser_fingerprint = 'device-within-group';
    await p.signIn({ id: 'group-a-2', group: 'a' }, { browser_fingerprint }, GB_IPS.sky);
    const r = await p.signIn({ id: 'group-a-3', group: 'a' }, { browser_fingerprint }, GB_IPS.bt, true);
    expect(r.accounts_linked).toBe(1);
    expect(r.linked_accounts).toEqual([expect.objectContaining({ account_id: 'group-a-2', match_type: ['device'] })]);
    expect(r.multiple_accounts).toBeGreaterThan(0);
  });
});
