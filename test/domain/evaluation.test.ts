/**
 * The pure evaluation: whole evaluations computed from facts values, with no database. The
 * linking and bot parts of docs/scoring.md's worked example go through `evaluate` itself.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { EvaluatedSession } from '../../src/api-types';
import {
  applyAccountInput,
  deviceOf,
  emailQueryOf,
  evaluate,
  linkSearchOf,
  NO_AGGREGATES,
  sessionsWithCurrent,
  withSession,
  type AccountRecord,
  type CurrentSession,
  type EvaluationFacts,
  type PastSession,
} from '../../src/domain/evaluation';
import { keptInputs, storedInputs } from '../../src/domain/evaluation/receipt';
import { compileRules, validateRules } from '../../src/domain/rules';
import { SCORING_VERSION } from '../../src/domain/scoring';
import { CONDITION_IDS, conditionCode, conditionName } from '../../src/domain/signals';
import { defined } from '../helpers/defined';

const NOW = new Date('2026-11-20T12:00:00.000Z');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const SPEC = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'generated', 'openapi.json'), 'utf8'));
/** The spec's example session: a person on an iPhone in San Francisco, nothing suspicious. */
const EXAMPLE: EvaluatedSession = SPEC.components.examples.AuthenticateResponseReal.value.session;

function session(overrides: Partial<CurrentSession> = {}, facts: Partial<EvaluatedSession> = {}): CurrentSession {
  return {
    id: 'session-now',
    startTime: new Date(NOW.getTime() - 5 * 60_000),
    deviceId: 'device-1',
    ipAddress: EXAMPLE.network.ip_address!,
    ipBlock: '172.58.12.0/24',
    connectionType: 'mobile',
    countryCode: 'US',
    facts: { ...structuredClone(EXAMPLE), ...facts },
    sdk: { source: 'ios', device_id: 'device-1' },
    accountIds: [],
    ...overrides,
  };
}

function account(overrides: Partial<AccountRecord> = {}): AccountRecord {
  return {
    projectId: 'p',
    id: 'acct',
    email: 'ada@example.org',
    emailKey: 'ada@example.org',
    emailDomain: 'example.org',
    nameKey: 'ada lovelace',
    expectedCountries: [],
    metadata: {},
    createdAt: new Date(NOW.getTime() - 90 * DAY),
    updatedAt: NOW,
    aggregates: NO_AGGREGATES,
    version: 3,
    ...overrides,
  };
}

function past(id: string, hoursAgo: number, overrides: Partial<PastSession> = {}): PastSession {
  return {
    id,
    startTime: new Date(NOW.getTime() - hoursAgo * HOUR),
    deviceId: `device-${id}`,
    ipAddress: '73.162.0.1',
    ipBlock: '73.162.0.0/24',
    countryCode: 'US',
    ...overrides,
  };
}

function facts(overrides: Partial<EvaluationFacts> = {}): EvaluationFacts {
  return {
    now: NOW,
    interactive: true,
    project: { decisionThreshold: 0.8, linkScoreFloor: 0.1, groupsEnabled: false },
    session: session(),
    ipLists: new Set(),
    previousIpLists: new Set(),
    network: { fraudOnIp: 0, fraudOnBlock: 0, ipFakeSessions: 0, ipBlockedAccounts: 0, ipDistinctAccounts: 0 },
    account: { record: account(), lists: [], sessions: [] },
    sessionAccountLists: [],
    identifierMatches: [],
    networkMatches: [],
    linked: new Map(),
    ...overrides,
  };
}

describe('evaluate', () => {
  it("when the worked example's shared identifiers and interaction are the facts, then its link scores and bot come out", () => {
    // docs/scoring.md: acct-A shares the device, the hardware fingerprint (2 accounts) and, 5 minutes earlier, an address
    // with two more accounts (4 in all); acct-B shares only the name with one other account (3): no link.
    // Mouse 6, click 2, clipboard 2, keyboard 0 on the web, a submitted form.
    const f = facts({
      session: session(
        {
          browserFingerprint: 'fingerprint-1',
          sdk: { source: 'web', device_id: 'device-1', browser_fingerprint: 'fingerprint-1' },
        },
        {
          source: 'web',
          bot: {
            mouse_num_events: 6,
            click_num_events: 2,
            keyboard_num_events: 0,
            touch_num_events: 0,
            clipboard_num_events: 2,
          },
          browser: {
            ...EXAMPLE.browser,
            user_agent:
              'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36',
          },
        },
      ),
    });
    f.identifierMatches = [
      { type: 'device', value: 'fingerprint-1', accountIds: ['acct-A'] },
      { type: 'name', value: 'ada lovelace', accountIds: ['acct-B', 'acct-C'] },
    ];
    f.networkMatches = [{ sessionId: 'session-now', onIp: ['acct-A', 'acct-X', 'acct-Y'], onBlock: [] }];
    const out = evaluate(f);
    const score = (id: string) => out.links.find((l) => l.accountId === id)?.score;
    expect(score('acct-A')).toBeCloseTo(0.8378, 4);
    // acct-B shares the name only, acct-X and acct-Y the address only: corroboration without a link to corroborate.
    expect(score('acct-B')).toBeUndefined();
    expect(out.links.map((l) => l.accountId)).toEqual(['acct-A']);
    expect(out.scores.bot).toBeCloseTo(0.31155, 5);
    expect(defined(out.links[0]).accountId).toBe('acct-A');
    expect(out.links.find((l) => l.accountId === 'acct-A')?.matchTypes).toEqual(['device', 'network']);
  });

  it('when the facts are clean, then Real, and the account is written with its new session counted', () => {
    const older = past('older', 30);
    const old = past('old', 3 * 24);
    const history = [older, old];
    const f = facts({
      account: {
        record: account({
          aggregates: {
            numSessions: 2,
            firstSeen: old.startTime,
            lastSeen: older.startTime,
            lastSessionId: 'older',
            lastCountry: 'US',
            countries: ['US'],
          },
        }),
        lists: [],
        sessions: history,
        // Kept for the windows once this session is linked (a day and a week before its start):
        // `old`'s and `older`'s devices in the week, none in the day; one network in the week.
        uniques: { devices: { '1_day': 0, '7_day': 2 }, networks: { '1_day': 0, '7_day': 1 } },
      },
    });
    f.session = session({ countryCode: 'CA' });
    const out = evaluate(f);
    expect(out.decision).toBe('Real');
    expect(out.account?.linksSession).toBe(true);
    const a = out.account!.record.aggregates;
    expect(a).toEqual({
      numSessions: 3,
      firstSeen: old.startTime,
      lastSeen: f.session.startTime,
      lastSessionId: 'session-now',
      lastCountry: 'CA',
      countries: ['CA', 'US'],
    });
    const d = out.account!.details;
    expect(d.num_sessions).toBe(3);
    expect(d.last_session).toBe('session-now');
    expect(d.country).toBe('CA');
    // Devices within a day of the last session: this one (`older`, 30 h before: no). Within 7 days: all three.
    expect(d.unique_devices).toEqual({ '1_day': 1, '7_day': 3 });
    expect(d.unique_networks['7_day']).toBe(2);
    expect(out.account!.record.decision).toBe('Real');
  });

  it('when the account used two profiles of one browser and cleared its storage, then one device (its fingerprint), whatever its stored ids', () => {
    expect(deviceOf(past('profile-1', 1, { deviceId: 'browser-1', browserFingerprint: 'fp-laptop' }))).toBe(
      'fp-laptop',
    );
    expect(deviceOf(past('profile-2', 2, { deviceId: 'browser-2', browserFingerprint: 'fp-laptop' }))).toBe(
      'fp-laptop',
    );
    expect(deviceOf(past('phone', 3, { deviceId: 'install-1', mobileId: 'vendor-1' }))).toBe('vendor-1');
    expect(deviceOf(past('bare', 3, { deviceId: 'install-2' }))).toBe('install-2');
    // The laptop and the phone kept, the laptop an hour ago: this session on the laptop adds none.
    const f = facts();
    f.account!.uniques = {
      devices: { '1_day': 2, '7_day': 2 },
      networks: { '1_day': 1, '7_day': 1 },
      deviceLastStart: new Date(f.session.startTime.getTime() - 3_600_000),
    };
    f.session = session({ deviceId: 'browser-3', browserFingerprint: 'fp-laptop' });
    const d = evaluate(f).account!.details;
    expect(d.unique_devices).toEqual({ '1_day': 2, '7_day': 2 });
  });

  it("when the session's device was last seen two days ago, then it counts again in the day, not in the week", () => {
    const f = facts();
    f.account!.uniques = {
      devices: { '1_day': 0, '7_day': 1 },
      networks: { '1_day': 0, '7_day': 0 },
      deviceLastStart: new Date(f.session.startTime.getTime() - 48 * 3_600_000),
    };
    const d = evaluate(f).account!.details;
    expect(d.unique_devices).toEqual({ '1_day': 1, '7_day': 1 });
    // Its network was never kept: one more in each window.
    expect(d.unique_networks).toEqual({ '1_day': 1, '7_day': 1 });
  });

  it('when the session was already linked to the account, then its aggregates are not counted twice', () => {
    const a = {
      numSessions: 1,
      firstSeen: session().startTime,
      lastSeen: session().startTime,
      lastSessionId: 'session-now',
      lastCountry: 'US',
      countries: ['US'],
    };
    const out = evaluate(
      facts({
        session: session({ accountIds: ['acct'] }),
        account: { record: account({ aggregates: a }), lists: [], sessions: [session()] },
      }),
    );
    expect(out.account?.linksSession).toBe(false);
    expect(out.account?.record.aggregates).toEqual(a);
  });

  it('when the account is on block, then Fake whatever the score; on allow, Real', () => {
    expect(evaluate(facts({ account: { record: account(), lists: ['block'], sessions: [] } })).decision).toBe('Fake');
    const risky = facts({
      ipLists: new Set(['tor', 'fraud']),
      account: { record: account(), lists: ['allow'], sessions: [] },
    });
    expect(evaluate(risky).decision).toBe('Real');
    expect(
      evaluate({ ...risky, account: { record: account(), lists: [], sessions: [] } }).scores.risk_signals,
    ).toBeGreaterThan(0.5);
  });

  it('when unauthenticated, then the accounts the session was used with are not linked to it, and their lists decide', () => {
    const f = facts({
      interactive: false,
      account: undefined,
      session: session({ accountIds: ['owner'] }),
      sessionAccountLists: ['block'],
      identifierMatches: [{ type: 'browser', value: 'device-1', accountIds: ['owner', 'other'] }],
    });
    const out = evaluate(f);
    expect(out.links.map((l) => l.accountId)).toEqual(['other']);
    expect(out.decision).toBe('Fake');
    expect(out.account).toBeUndefined();
  });

  it("when links are equally strong, then they come in the code-unit order of their ids, not the process's locale's", () => {
    // English collation puts `a` before `B` (and Danish `aa` after `z`); code units put `B` (66)
    // before `a` (97) and `aa` before `z` on every machine.
    const f = facts({
      identifierMatches: [{ type: 'browser', value: 'device-1', accountIds: ['z', 'acct-a', 'aa', 'acct-B'] }],
    });
    expect(evaluate(f).links.map((l) => l.accountId)).toEqual(['aa', 'acct-B', 'acct-a', 'z']);
  });

  it('when groups are on, then only accounts of the same group are linked', () => {
    const inGroup = { record: account({ id: 'same', group: 'g1' }), lists: [] };
    const outside = { record: account({ id: 'elsewhere', group: 'g2' }), lists: [] };
    const f = facts({
      project: { decisionThreshold: 0.8, linkScoreFloor: 0.1, groupsEnabled: true },
      account: { record: account({ group: 'g1' }), lists: [], sessions: [] },
      identifierMatches: [{ type: 'browser', value: 'device-1', accountIds: ['same', 'elsewhere'] }],
      linked: new Map([
        ['same', inGroup],
        ['elsewhere', outside],
      ]),
    });
    expect(evaluate(f).links.map((l) => l.accountId)).toEqual(['same']);
  });

  it('when the previous session was far away an hour ago, then impossible travel; through an anonymising list, not', () => {
    const london = { latitude: 51.5072, longitude: -0.1276, accuracyKm: 50, anonymised: false };
    const previous = past('prev', 1, { location: london, ipAddress: '81.2.69.142' });
    const f = facts({ previous, account: { record: account(), lists: [], sessions: [previous] } });
    expect(evaluate(f).signals.risk_signals.impossible_travel).toBe(true);
    expect(evaluate({ ...f, previousIpLists: new Set(['vpn']) }).signals.risk_signals.impossible_travel).toBe(false);
  });

  it('when the email history shows fraud with the address, then the email score and the account score rise', () => {
    const clean = evaluate(
      facts({
        account: {
          record: account(),
          lists: [],
          sessions: [],
          email: { accountsFromDomain: 0, fraudAccountsWithAddress: 0, fraudAccountsAtDomain: 0 },
        },
      }),
    );
    const fraud = evaluate(
      facts({
        account: {
          record: account(),
          lists: [],
          sessions: [],
          email: { accountsFromDomain: 0, fraudAccountsWithAddress: 2, fraudAccountsAtDomain: 0 },
        },
      }),
    );
    expect(fraud.account!.email!.email_score).toBeGreaterThan(clean.account!.email!.email_score);
    expect(fraud.scores.account_score).toBeGreaterThan(clean.scores.account_score);
  });
});

describe('evaluate with rules', () => {
  /** A document compiled as the use case compiles the project's (it must pass the checks). */
  function rules(doc: unknown, version = 4) {
    const checked = validateRules(doc);
    if (!checked.ok) throw new Error(JSON.stringify(checked.errors));
    return compileRules(checked.document, version);
  }
  const fakeOnMobile = rules({
    rules: [
      {
        id: 'mobile-fake',
        when: { field: 'session.network.connection_type', op: 'eq', value: 'mobile' },
        then: { decision: 'Fake', add_to_lists: ['review'], remove_from_lists: ['vip'], tags: ['mobile'] },
      },
      { id: 'never', when: { field: 'account_score', op: 'gt', value: 0.99 }, then: { tags: ['never'] } },
    ],
  });

  it("when no rules, then the outcome is the scores' and the record says version 0 and nothing matched", () => {
    const out = evaluate(facts());
    expect(out.decision).toBe('Real');
    expect(out.rules).toEqual({ version: 0, matched: [], listActions: [], tags: [] });
  });

  it("when a rule matches, then it sets the decision, the account's record and lists follow, and the list actions are returned in order", () => {
    const without = evaluate(facts({ account: { record: account(), lists: ['vip'], sessions: [] } }));
    const out = evaluate(facts({ account: { record: account(), lists: ['vip'], sessions: [] }, rules: fakeOnMobile }));
    expect(without.decision).toBe('Real');
    expect(out.decision).toBe('Fake');
    expect(out.account?.record.decision).toBe('Fake');
    expect(out.scores).toEqual(without.scores);
    expect(out.lists).toEqual(['review']);
    expect(out.rules).toEqual({
      version: 4,
      matched: ['mobile-fake'],
      decision: 'Fake',
      decidedBy: 'mobile-fake',
      listActions: [
        { action: 'add', list: 'review', rule: 'mobile-fake' },
        { action: 'remove', list: 'vip', rule: 'mobile-fake' },
      ],
      tags: ['mobile'],
    });
  });

  it('when the account is on allow, then a rule does not decide, but still matches and its lists and tags apply', () => {
    const out = evaluate(
      facts({ account: { record: account(), lists: ['allow'], sessions: [] }, rules: fakeOnMobile }),
    );
    expect(out.decision).toBe('Real');
    expect(out.rules.matched).toEqual(['mobile-fake']);
    expect(out.rules.decidedBy).toBeUndefined();
    expect(out.lists).toEqual(['allow', 'review']);
    expect(out.rules.tags).toEqual(['mobile']);
  });

  it('when unauthenticated, then a rule decides and tags, and its list actions do nothing (no account)', () => {
    const out = evaluate(facts({ interactive: false, account: undefined, rules: fakeOnMobile }));
    expect(out.decision).toBe('Fake');
    expect(out.lists).toEqual([]);
    expect(out.rules.listActions).toEqual([]);
    expect(out.rules.matched).toEqual(['mobile-fake']);
  });

  it('when a rule reads linked accounts and the email, then it sees them as the response gives them', () => {
    const doc = rules({
      rules: [
        {
          id: 'shared-browser-valid-email',
          when: {
            all: [
              { field: 'linked_accounts.match_type', op: 'contains', value: 'browser' },
              // example.org is reserved: not a valid address.
              { field: 'account.email.domain_type', op: 'eq', value: 'invalid' },
              { field: 'accounts_linked', op: 'eq', value: 1 },
            ],
          },
          then: { tags: ['shared'] },
        },
      ],
    });
    const f = facts({ rules: doc, identifierMatches: [{ type: 'browser', value: 'device-1', accountIds: ['other'] }] });
    f.account!.email = { accountsFromDomain: 0, fraudAccountsWithAddress: 0, fraudAccountsAtDomain: 0 };
    expect(evaluate(f).rules.tags).toEqual(['shared']);
    expect(evaluate({ ...f, identifierMatches: [] }).rules.tags).toEqual([]);
  });
});

describe('the pieces', () => {
  it('when the current session is older than some of the history, then it takes its place in time order', () => {
    const h = [past('a', 1), past('b', 10)];
    expect(sessionsWithCurrent(h, session({ startTime: new Date(NOW.getTime() - 5 * HOUR) })).map((s) => s.id)).toEqual(
      ['a', 'session-now', 'b'],
    );
  });

  it('when an account is searched for links, then its newest 50 sessions, its identifiers and its 10 newest networks are', () => {
    const history = Array.from({ length: 60 }, (_, i) => past(`s${i}`, i + 1, { browserFingerprint: `fp-${i % 2}` }));
    const search = linkSearchOf({ session: session(), account: { record: account(), sessions: history } });
    // The stored ids are browsers, the fingerprints devices.
    const of = (type: string) => search.identifiers.filter((i) => i.type === type).map((i) => i.value);
    expect(of('browser')).toHaveLength(50);
    expect(of('browser').every((v) => v.startsWith('device-'))).toBe(true);
    expect(of('device').sort()).toEqual(['fp-0', 'fp-1']);
    expect(search.identifiers.filter((i) => i.of === 'account').map((i) => i.type)).toEqual(['email', 'name']);
    expect(search.networks).toHaveLength(10);
    expect(search.excludeAccount).toBe('acct');
  });

  it('when an input is applied to an account, then its identifiers are normalised and a rule it breaks is returned, not thrown', () => {
    const context = { projectId: 'p', groupsEnabled: false, now: NOW };
    const applied = applyAccountInput(context, account(), { email: 'Ada.L+News@GMAIL.com', username: 'Ada_L' }, 'acct');
    if (!('record' in applied)) throw new Error(applied.refused);
    expect(applied.record).toMatchObject({ email: 'Ada.L+News@GMAIL.com', emailDomain: 'gmail.com', version: 3 });
    expect(applied.record.emailKey).toBe(emailQueryOf(applied.record)?.key);
    expect(emailQueryOf(applied.record)).toMatchObject({
      domain: 'gmail.com',
      excludeAccount: 'acct',
      domainFraud: false,
    });
    expect(applyAccountInput(context, undefined, {}, 'new')).toMatchObject({ record: { version: 0, createdAt: NOW } });
    expect(applyAccountInput(context, account(), { group: 'g' }, 'acct')).toEqual({
      refused: 'account.group is not allowed: groups are not enabled for this project',
    });
    const grouped = { ...context, groupsEnabled: true };
    expect(applyAccountInput(grouped, undefined, {}, 'new', '')).toEqual({
      refused: 'group is required: groups are enabled for this project',
    });
    expect(applyAccountInput(grouped, account({ group: 'a' }), { group: 'b' }, 'acct')).toEqual({
      refused: 'account.group cannot change: the account is in group "a"',
    });
    expect(applyAccountInput(context, account(), { lists: ['allow', 'block'] }, 'acct')).toMatchObject({
      refused: expect.stringContaining('account.lists may hold only one of'),
    });
  });

  it('when sessions are linked in any order, then the aggregates are the same', () => {
    const sessions = [past('x', 5, { countryCode: 'GB' }), past('y', 50), past('z', 1, { countryCode: 'FR' })];
    const forward = sessions.reduce(withSession, NO_AGGREGATES);
    const backward = [...sessions].reverse().reduce(withSession, NO_AGGREGATES);
    expect(forward).toEqual(backward);
    expect(forward).toMatchObject({
      numSessions: 3,
      lastSessionId: 'z',
      lastCountry: 'FR',
      countries: ['FR', 'GB', 'US'],
    });
  });
});

describe('the value an evaluation keeps for its receipt (receipt.ts)', () => {
  const scoring = {
    bot: { automation: true, crawler: false, tampering: 0.96, interactive: true, doubt: 0.123456789012345 },
    linkScores: [0.8123456789012345, 0.8123456789012345, 0.6, 0.8123456789012345, 1],
    emailScore: -0.25,
  };

  const none = { links: [], details: { network: [], device: [] } };

  it('when it is read back, then every number is the one kept (runs of equal link scores unfolded in order)', () => {
    const stored = storedInputs(scoring, 0.8, 'acct-1', ['review', 'main_account'], none);
    expect(JSON.parse(stored)).toEqual([
      3,
      SCORING_VERSION,
      3,
      0.8,
      0.123456789012345,
      -0.25,
      'acct-1',
      ['review', 'main_account'],
      [0.8123456789012345, 2, 0.6, 1, 0.8123456789012345, 1, 1, 1],
      null,
      [],
      [[], []],
      0.96,
    ]);
    const format1 = {
      scoringVersion: SCORING_VERSION,
      // Scored before the tampering term: read as 0, the score it answered.
      bot: { ...scoring.bot, tampering: 0 },
      threshold: 0.8,
      emailScore: -0.25,
      accountId: 'acct-1',
      lists: ['review', 'main_account'],
      linkScores: scoring.linkScores,
    };
    const replay = { account: null, linkMatchTypes: [], details: { network: [], device: [] } };
    expect(keptInputs(stored)).toEqual({ ...format1, bot: scoring.bot, replay });
    // A row written before format 3 keeps no tampering strength; one before format 2 neither what a backtest replays.
    const format2 = JSON.stringify([2, ...JSON.parse(stored).slice(1, 12)]);
    expect(keptInputs(format2)).toEqual({ ...format1, replay });
    const old = JSON.stringify([1, ...JSON.parse(stored).slice(1, 9)]);
    expect(keptInputs(old)).toEqual(format1);
  });

  it('when the account, the links and the details are kept, then they read back as the rules read them, conditions as ids', () => {
    const averages = {
      device_risk: 0.1234567890123,
      proxy: 0,
      vpn: 1,
      tor: 0,
      spoofed_ip: 0,
      datacenter: 0.5,
      recent_fraud_ip: 0,
      impossible_travel: 0,
      device_network_mismatch: 0,
      location_spoofing: 0,
    };
    const details = {
      account: { id: 'acct-1', metadata: { tier: 'gold' }, email: 'x@example.org', group: 'g' },
      num_sessions: 3,
      first_seen: '2026-01-01T00:00:00.000Z',
      last_seen: '2026-01-02T00:00:00.000Z',
      last_session: 's',
      countries: ['FR', 'GB'],
      country: 'GB',
      unique_devices: { '1_day': 1, '7_day': 2 },
      unique_networks: { '1_day': 2, '7_day': 3 },
      risk_signal_average: averages,
      email: {} as never,
    };
    const history = {
      accountsFromDomain: 4,
      addressFirstSeen: new Date(1000),
      fraudAccountsWithAddress: 1,
      fraudAccountsAtDomain: 0,
    };
    const stored = storedInputs(scoring, 0.8, 'acct-1', [], {
      account: { details, emailHistory: history, now: new Date(5000) },
      links: [{ matchTypes: ['device', 'email'] }, { matchTypes: ['apple_device_check'] }],
      details: { network: ['tor_exit_node', 'a_new_condition'], device: ['webdriver'] },
    });
    expect(stored).not.toContain('x@example.org');
    expect(stored).not.toContain('gold');
    expect(keptInputs(stored).replay).toEqual({
      account: {
        numSessions: 3,
        country: 'GB',
        countries: ['FR', 'GB'],
        uniqueDevices: { '1_day': 1, '7_day': 2 },
        uniqueNetworks: { '1_day': 2, '7_day': 3 },
        riskSignalAverage: averages,
        group: 'g',
        email: { history, now: new Date(5000) },
      },
      linkMatchTypes: [['device', 'email'], ['apple_device_check']],
      details: { network: ['tor_exit_node', 'a_new_condition'], device: ['webdriver'] },
    });
  });

  it('when a test project forced the outcome or nothing was linked, then the flags and the empty runs say so', () => {
    for (const forced of ['fake', 'real', 'signal'] as const) {
      const kept = keptInputs(
        storedInputs({ ...scoring, linkScores: [], emailScore: undefined, forced }, 0.5, undefined, [], none),
      );
      expect(kept).toMatchObject({ forced, accountId: null, linkScores: [], threshold: 0.5 });
      expect(kept.emailScore).toBeUndefined();
    }
    expect(keptInputs(storedInputs(scoring, 0.8, 'a', [], none)).forced).toBeUndefined();
  });
});

describe('the conditions kept by id (domain/signals/conditions.ts)', () => {
  it('when a signal names a condition, then it has an id, and the ids are distinct', () => {
    const dir = path.join(__dirname, '..', '..', 'src', 'domain', 'signals');
    const named = new Set<string>();
    for (const file of fs.readdirSync(dir))
      for (const m of fs.readFileSync(path.join(dir, file), 'utf8').matchAll(/name: '([a-z0-9_]+)'/g)) named.add(m[1]!);
    expect(named.size).toBeGreaterThan(20);
    expect([...named].filter((n) => !CONDITION_IDS.includes(n))).toEqual([]);
    expect(new Set(CONDITION_IDS).size).toBe(CONDITION_IDS.length);
    expect(CONDITION_IDS.map((n) => conditionName(conditionCode(n)))).toEqual(CONDITION_IDS);
  });
});
