import { SIGNALS } from '../../src/domain/signals';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import type { Bot, EvaluatedRiskSignalScores, MatchType } from '../../src/api-types';
import * as linking from '../../src/domain/linking';
import { linkScore, type LinkEvidence } from '../../src/domain/linking';
import * as constants from '../../src/domain/scoring/constants';
import {
  ACCOUNT_WEIGHTS,
  BOT_WEIGHTS,
  MULTIPLE_ACCOUNTS,
  RISK_SIGNAL_WEIGHTS,
  SCORED_SIGNALS,
  accountScore,
  accountScoreBreakdown,
  botBreakdown,
  botScore,
  combine,
  decide,
  interactionDoubt,
  isCrawlerUserAgent,
  multipleAccountsBreakdown,
  multipleAccountsScore,
  riskSignalAverage,
  riskSignalsBreakdown,
  riskSignalsScore,
  type BotInputs,
  type SessionSource,
} from '../../src/domain/scoring';
import { DEFAULT_DECISION_THRESHOLD } from '../../src/usecases/projects';
import { LINK_CAP } from '../../src/domain/evaluation';
import { CHALLENGE_GRACE_MS, EVENT_RATE_CEILING } from '../../src/domain/signals/received';

/** Slack for floating-point rounding in the property comparisons. */
const EPS = 1e-12;
const DAY = 24 * 60 * 60 * 1000;

const UA = {
  chrome:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36',
  iphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
  googlebot: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  headless:
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/142.0.0.0 Safari/537.36',
  curl: 'curl/8.5.0',
};

function counts(c: Partial<Record<'mouse' | 'click' | 'keyboard' | 'touch' | 'clipboard', number>> = {}): Bot {
  return {
    mouse_num_events: c.mouse ?? 0,
    click_num_events: c.click ?? 0,
    keyboard_num_events: c.keyboard ?? 0,
    touch_num_events: c.touch ?? 0,
    clipboard_num_events: c.clipboard ?? 0,
  };
}

const PERSON_DESKTOP = counts({ mouse: 214, click: 6, keyboard: 41 });
const PERSON_PHONE = counts({ click: 4, keyboard: 37, touch: 52, clipboard: 1 });

function inputs(over: Partial<BotInputs> = {}): BotInputs {
  return {
    bot: PERSON_DESKTOP,
    source: 'web',
    automation: false,
    crawler: false,
    tampering: 0,
    interactive: true,
    ...over,
  };
}

function cleanSignals(over: Partial<EvaluatedRiskSignalScores> = {}): EvaluatedRiskSignalScores {
  return {
    device_risk: 0,
    proxy: 0,
    vpn: 0,
    tor: 0,
    datacenter: 0,
    recent_fraud_ip: 0,
    impossible_travel: 0,
    device_network_mismatch: 0,
    location_spoofing: 0,
    ip_reputation: 0,
    ...over,
  };
}

// ---------------------------------------------------------------- arbitraries

const unit = fc.double({ min: 0, max: 1, noNaN: true });
const emailScore = fc.double({ min: -1, max: 1, noNaN: true });
const eventCount = fc.oneof(fc.nat({ max: 20 }), fc.nat({ max: 1_000_000 }));
const botCounts: fc.Arbitrary<Bot> = fc.record({
  mouse_num_events: eventCount,
  click_num_events: eventCount,
  keyboard_num_events: eventCount,
  touch_num_events: eventCount,
  clipboard_num_events: eventCount,
});
const source = fc.constantFrom<SessionSource | undefined>('web', 'ios', 'android', undefined);
const botInputs: fc.Arbitrary<BotInputs> = fc.record({
  bot: botCounts,
  source,
  automation: fc.boolean(),
  crawler: fc.boolean(),
  tampering: fc.oneof(fc.constant(0), unit),
  interactive: fc.boolean(),
});
const signalScores: fc.Arbitrary<EvaluatedRiskSignalScores> = fc.record({
  device_risk: unit,
  proxy: unit,
  vpn: unit,
  tor: unit,
  datacenter: unit,
  recent_fraud_ip: unit,
  impossible_travel: unit,
  device_network_mismatch: unit,
  location_spoofing: unit,
  ip_reputation: unit,
});
const signal = fc.constantFrom(...SCORED_SIGNALS);
const parts = fc.record({
  bot: unit,
  risk_signals: unit,
  multiple_accounts: unit,
  email_score: fc.option(emailScore, { nil: undefined }),
});
const matchType = fc.constantFrom(...(Object.keys(linking.LINK_BASE_WEIGHTS) as LinkEvidence['type'][]));
const evidence: fc.Arbitrary<LinkEvidence> = fc.record({
  type: matchType,
  sharedBy: fc.integer({ min: 2, max: 2000 }),
});
const links = fc.array(fc.array(evidence, { minLength: 1, maxLength: 4 }), { maxLength: 8 });

const inUnit = (x: number) => Number.isFinite(x) && x >= 0 && x <= 1;
const EVENT_KINDS = [
  'mouse_num_events',
  'click_num_events',
  'keyboard_num_events',
  'touch_num_events',
  'clipboard_num_events',
] as const;

// ---------------------------------------------------------------- unit cases

describe('isCrawlerUserAgent', () => {
  it('when the user agent is a crawler, a headless browser or an HTTP library, then true', () => {
    expect(isCrawlerUserAgent(UA.googlebot)).toBe(true);
    expect(isCrawlerUserAgent(UA.headless)).toBe(true);
    expect(isCrawlerUserAgent(UA.curl)).toBe(true);
  });

  it('when the user agent is an ordinary browser, empty or missing, then false', () => {
    expect(isCrawlerUserAgent(UA.chrome)).toBe(false);
    expect(isCrawlerUserAgent(UA.iphone)).toBe(false);
    expect(isCrawlerUserAgent('')).toBe(false);
    expect(isCrawlerUserAgent(undefined)).toBe(false);
  });
});

describe('interactionDoubt', () => {
  it('when no event was counted on the web, then 1; with an unknown source, then half that', () => {
    expect(interactionDoubt(counts(), 'web')).toBe(1);
    expect(interactionDoubt(counts(), undefined)).toBe(0.5);
  });

  it('when a native app saw touches but no key presses, then only the touches count', () => {
    expect(interactionDoubt(counts({ touch: 40, click: 3 }), 'ios')).toBeLessThan(0.001);
    expect(interactionDoubt(counts({ touch: 40, click: 3 }), 'web')).toBeCloseTo(0.4, 3);
    expect(interactionDoubt(counts(), 'android')).toBe(1);
  });

  it('when every 4 pointer and 2 typing events halve the doubt, then 8 pointer and 2 typing events leave 0.35', () => {
    expect(interactionDoubt(counts({ mouse: 6, click: 2, clipboard: 2 }), 'web')).toBeCloseTo(0.35, 12);
  });
});

describe('botScore', () => {
  it('when a person moved, clicked and typed, then the floor of 0.02, far below 0.8', () => {
    expect(botScore(inputs())).toBeCloseTo(BOT_WEIGHTS.base, 4);
    expect(botScore(inputs({ bot: PERSON_PHONE, source: 'ios' }))).toBeCloseTo(BOT_WEIGHTS.base, 3);
    expect(botScore(inputs({ bot: PERSON_PHONE, source: 'web' }))).toBeLessThan(0.05);
  });

  it('when a headless browser submitted a form with no interaction, then at least 0.8', () => {
    const headless = inputs({ bot: counts(), automation: true, crawler: isCrawlerUserAgent(UA.headless) });
    expect(botScore(headless)).toBeGreaterThanOrEqual(0.8);
    expect(botScore({ ...headless, crawler: false })).toBeCloseTo(1 - 0.98 * 0.1 * 0.15, 12);
    expect(botScore({ ...headless, crawler: false })).toBeGreaterThanOrEqual(0.8);
  });

  it('when nothing was typed or clicked but no form was submitted either, then the lack of interaction weighs little', () => {
    expect(botScore(inputs({ bot: counts(), interactive: false }))).toBeCloseTo(0.167, 12);
    expect(botScore(inputs({ bot: counts(), interactive: true }))).toBeCloseTo(1 - 0.98 * 0.15, 12);
  });

  it('when the user agent is a crawler, then at least the crawler weight', () => {
    expect(botScore(inputs({ bot: counts(), crawler: true, interactive: false }))).toBeCloseTo(0.8334, 12);
  });

  it("when a stealth browser's post reports two tampering findings and a person's interaction, then 0.6786, not the floor", () => {
    // browser_tampering_detected and navigator_getters_overridden, 0.8 each: 1 - 0.2 · 0.2.
    const stealth = inputs({ tampering: 0.96 });
    expect(botScore(stealth)).toBeCloseTo(1 - 0.98 * (1 - 0.7 * 0.96), 6);
    expect(botScore(stealth)).toBeCloseTo(0.6786, 4);
    expect(botScore(inputs())).toBeCloseTo(BOT_WEIGHTS.base, 4);
    // With nothing else found: device_risk 0.96, so risk_signals 0.9 · 0.96; Fake at 0.8, where the floor left it Real.
    const parts = { risk_signals: riskSignalsScore(cleanSignals({ device_risk: 0.96 }), false), multiple_accounts: 0 };
    expect(accountScore({ ...parts, bot: botScore(stealth) })).toBeCloseTo(0.9007, 4);
    expect(accountScore({ ...parts, bot: botScore(inputs()) })).toBeCloseTo(0.6974, 4);
  });

  it('when only the Accept-Language header contradicts the post, then its weight 0.6 counts: 0.4316', () => {
    expect(botScore(inputs({ tampering: 0.6 }))).toBeCloseTo(1 - 0.98 * 0.58, 6);
  });

  it("when the tampering's strength is 0, then the score is the one without the term", () => {
    const without = (b: BotInputs) => {
      const n = b.interactive ? BOT_WEIGHTS.no_interaction_interactive : BOT_WEIGHTS.no_interaction_passive;
      return 1 - 0.98 * (b.automation ? 0.1 : 1) * (b.crawler ? 0.2 : 1) * (1 - n * interactionDoubt(b.bot, b.source));
    };
    for (const b of [
      inputs(),
      inputs({ bot: counts(), automation: true }),
      inputs({ crawler: true, interactive: false }),
    ])
      expect(botScore(b)).toBeCloseTo(without(b), 12);
  });
});

describe('riskSignalsScore', () => {
  it('when every signal is clean, then 0', () => {
    expect(riskSignalsScore(cleanSignals(), false)).toBe(0);
  });

  it("when one signal scores 1, then that signal's weight", () => {
    for (const s of SCORED_SIGNALS)
      expect(riskSignalsScore(cleanSignals({ [s]: 1 }), false)).toBeCloseTo(RISK_SIGNAL_WEIGHTS[s], 12);
    expect(riskSignalsScore(cleanSignals(), true)).toBe(RISK_SIGNAL_WEIGHTS.spoofed_ip);
  });

  it('when Tor and a spoofed address come together, then the noisy-OR 1 - 0.2 * 0.5', () => {
    expect(riskSignalsScore(cleanSignals({ tor: 1 }), true)).toBeCloseTo(0.9, 12);
  });

  it('when every signal is at its worst, then close to but not above 1', () => {
    const all = cleanSignals(Object.fromEntries(SCORED_SIGNALS.map((s) => [s, 1])));
    expect(riskSignalsScore(all, true)).toBeGreaterThan(0.999);
    expect(riskSignalsScore(all, true)).toBeLessThanOrEqual(1);
  });
});

describe('multipleAccountsScore', () => {
  it('when there are no links, then 0', () => {
    expect(multipleAccountsScore([], false)).toBe(0);
  });

  it('when one or two certain links, then 0.6 and 0.84', () => {
    expect(multipleAccountsScore([1], false)).toBeCloseTo(0.6, 12);
    expect(multipleAccountsScore([1, 1], false)).toBeCloseTo(0.84, 12);
  });

  it('when the account is on main_account, then 0 whatever its links', () => {
    expect(multipleAccountsScore([1, 1, 1], true)).toBe(0);
  });
});

describe('accountScore', () => {
  it('when nothing is risky and there is no email, then 0', () => {
    expect(accountScore({ bot: 0, risk_signals: 0, multiple_accounts: 0 })).toBe(0);
  });

  it('when a person on a clean network with one probable link and a slightly trusted email, then well below 0.8', () => {
    const bot = botScore(inputs({ bot: PERSON_PHONE }));
    const risk = riskSignalsScore(cleanSignals({ ip_reputation: 0.05 }), false);
    const multi = multipleAccountsScore(
      [
        linkScore([
          { type: 'device', sharedBy: 2 },
          { type: 'name', sharedBy: 2 },
        ]),
      ],
      false,
    );
    expect(accountScore({ bot, risk_signals: risk, multiple_accounts: multi, email_score: -0.2 })).toBeLessThan(0.5);
  });

  it('when a headless bot used the most trusted email, then still at least 0.8', () => {
    const bot = botScore(inputs({ bot: counts(), automation: true }));
    expect(accountScore({ bot, risk_signals: 0, multiple_accounts: 0, email_score: -1 })).toBeGreaterThanOrEqual(0.8);
  });

  it('when the email is missing, then it counts as an email_score of 0', () => {
    const p = { bot: 0.3, risk_signals: 0.4, multiple_accounts: 0.5 };
    expect(accountScore(p)).toBe(accountScore({ ...p, email_score: 0 }));
  });

  it('when the email is trusted, then at most 10 % comes off', () => {
    const p = { bot: 0.3, risk_signals: 0.4, multiple_accounts: 0.5 };
    expect(accountScore({ ...p, email_score: -1 })).toBeCloseTo(
      accountScore(p) * (1 - ACCOUNT_WEIGHTS.email_trust),
      12,
    );
  });
});

describe('decide', () => {
  it('when the score reaches the threshold, then Fake; below it, then Real', () => {
    expect(decide(0.8, 0.8, [])).toBe('Fake');
    expect(decide(0.7994, 0.8, [])).toBe('Real');
  });

  it('when the score is compared, then as the answer reports it (3 decimals), so the two never disagree', () => {
    // 0.9959 is reported 0.996: at a threshold of 0.996 it is Fake, not Real.
    expect(decide(0.9959, 0.996, [])).toBe('Fake');
    expect(decide(0.7995, 0.8, [])).toBe('Fake');
    // 0.6472 is reported 0.647: below a threshold of 0.6472, so Real, not Fake.
    expect(decide(0.6472, 0.6472, [])).toBe('Real');
    expect(decide(0.80049, 0.8005, [])).toBe('Real');
  });

  it('when the account is on block, then Fake; on allow, then Real, whatever the score', () => {
    expect(decide(0, 0.8, ['block'])).toBe('Fake');
    expect(decide(1, 0.8, ['allow'])).toBe('Real');
  });

  it('when both allow and block are present (which should never happen), then block wins', () => {
    expect(decide(0, 0.8, ['allow', 'block'])).toBe('Fake');
  });

  it('when only custom lists or main_account are present, then the threshold decides', () => {
    expect(decide(0.9, 0.8, ['beta-testers', 'main_account'])).toBe('Fake');
    expect(decide(0.1, 0.8, ['beta-testers', 'main_account'])).toBe('Real');
  });
});

describe('riskSignalAverage', () => {
  const now = new Date('2026-11-20T12:00:00Z');
  const at = (daysAgo: number) => new Date(now.getTime() - daysAgo * DAY);

  it('when the account has no sessions, then every average is 0', () => {
    const avg = riskSignalAverage([], now);
    expect(Object.keys(avg).sort()).toEqual(
      [
        'datacenter',
        'device_network_mismatch',
        'device_risk',
        'impossible_travel',
        'location_spoofing',
        'proxy',
        'recent_fraud_ip',
        'spoofed_ip',
        'tor',
        'vpn',
      ].sort(),
    );
    expect(Object.values(avg).every((v) => v === 0)).toBe(true);
  });

  it('when there is one session, then its scores, with spoofed_ip as 1 and without ip_reputation', () => {
    const avg = riskSignalAverage(
      [{ time: at(3), scores: cleanSignals({ vpn: 0.7, ip_reputation: 1 }), spoofedIp: true }],
      now,
    );
    expect(avg.vpn).toBeCloseTo(0.7, 12);
    expect(avg.spoofed_ip).toBe(1);
    expect(avg).not.toHaveProperty('ip_reputation');
  });

  it('when a session today was on a VPN and one a week ago was not, then the week-old one counts half: 0.6667', () => {
    const avg = riskSignalAverage(
      [
        { time: at(0), scores: cleanSignals({ vpn: 1 }), spoofedIp: false },
        { time: at(7), scores: cleanSignals(), spoofedIp: false },
      ],
      now,
    );
    expect(avg.vpn).toBeCloseTo(2 / 3, 12);
  });

  it('when a session is dated after now, then it weighs like one made now', () => {
    const avg = riskSignalAverage(
      [
        { time: new Date(now.getTime() + 30 * DAY), scores: cleanSignals({ tor: 1 }), spoofedIp: false },
        { time: at(0), scores: cleanSignals(), spoofedIp: false },
      ],
      now,
    );
    expect(avg.tor).toBeCloseTo(0.5, 12);
  });

  it('when every session is decades old, then the average of those sessions, not 0/0', () => {
    const avg = riskSignalAverage(
      [
        { time: at(40 * 365), scores: cleanSignals({ proxy: 1 }), spoofedIp: false },
        { time: at(40 * 365 + 7), scores: cleanSignals(), spoofedIp: false },
      ],
      now,
    );
    expect(avg.proxy).toBeCloseTo(2 / 3, 9);
  });

  it('when a session has an invalid time, then it is left out', () => {
    const avg = riskSignalAverage(
      [
        { time: new Date('not a date'), scores: cleanSignals({ tor: 1 }), spoofedIp: true },
        { time: at(1), scores: cleanSignals(), spoofedIp: false },
      ],
      now,
    );
    expect(avg.tor).toBe(0);
    expect(avg.spoofed_ip).toBe(0);
  });
});

// ---------------------------------------------------------------- properties

describe('properties', () => {
  it("when any inputs, then each score's breakdown (a receipt's terms) has exactly the score's value, and its terms recompute to it", () => {
    // Link scores drawn from a few values, so that runs of equal scores (one term, a count) occur.
    const links = fc.array(fc.oneof(unit, fc.constantFrom(0.8, 0.5, 1, 0)), { maxLength: 40 });
    fc.assert(
      fc.property(botInputs, signalScores, fc.boolean(), links, fc.boolean(), parts, (b, s, spoofed, ls, main, p) => {
        const checks: [ReturnType<typeof botBreakdown>, number][] = [
          [botBreakdown({ ...b, doubt: interactionDoubt(b.bot, b.source) }), botScore(b)],
          [riskSignalsBreakdown(s, spoofed), riskSignalsScore(s, spoofed)],
          [multipleAccountsBreakdown(ls, main), multipleAccountsScore(ls, main)],
          [accountScoreBreakdown(p), accountScore(p)],
        ];
        for (const [breakdown, score] of checks) {
          expect(breakdown.value).toBe(score);
          expect(combine(breakdown.terms, breakdown.discount ?? undefined)).toBe(score);
        }
        const linked = multipleAccountsBreakdown(ls, false).terms.reduce((n, t) => n + t.count, 0);
        expect(linked).toBe(ls.length);
      }),
      { numRuns: 500 },
    );
  });

  it('when any inputs, then every score is in [0, 1]', () => {
    fc.assert(
      fc.property(
        botInputs,
        signalScores,
        fc.boolean(),
        fc.array(unit),
        fc.boolean(),
        parts,
        (b, s, spoofed, ls, main, p) => {
          expect(inUnit(botScore(b))).toBe(true);
          expect(inUnit(interactionDoubt(b.bot, b.source))).toBe(true);
          expect(inUnit(riskSignalsScore(s, spoofed))).toBe(true);
          expect(inUnit(multipleAccountsScore(ls, main))).toBe(true);
          expect(inUnit(accountScore(p))).toBe(true);
        },
      ),
    );
  });

  it('when automation, a crawler user agent or a form submission is added, then the bot score never falls and rises by at most that weight', () => {
    fc.assert(
      fc.property(botInputs, (b) => {
        const before = botScore({ ...b, automation: false });
        const after = botScore({ ...b, automation: true });
        expect(after).toBeGreaterThanOrEqual(before - EPS);
        expect(after - before).toBeLessThanOrEqual(BOT_WEIGHTS.automation + EPS);
        const beforeC = botScore({ ...b, crawler: false });
        const afterC = botScore({ ...b, crawler: true });
        expect(afterC).toBeGreaterThanOrEqual(beforeC - EPS);
        expect(afterC - beforeC).toBeLessThanOrEqual(BOT_WEIGHTS.crawler + EPS);
        expect(botScore({ ...b, interactive: true })).toBeGreaterThanOrEqual(
          botScore({ ...b, interactive: false }) - EPS,
        );
      }),
    );
  });

  it('when the tampering strength rises, then the bot score never falls and rises by at most its weight times the change', () => {
    fc.assert(
      fc.property(botInputs, unit, unit, (b, x, y) => {
        const [lo, hi] = x <= y ? [x, y] : [y, x];
        const before = botScore({ ...b, tampering: lo });
        const after = botScore({ ...b, tampering: hi });
        expect(after).toBeGreaterThanOrEqual(before - EPS);
        expect(after - before).toBeLessThanOrEqual(BOT_WEIGHTS.tampering * (hi - lo) + EPS);
      }),
    );
  });

  it('when more interaction events are seen, then the bot score never rises', () => {
    fc.assert(
      fc.property(botInputs, fc.constantFrom(...EVENT_KINDS), fc.nat({ max: 1000 }), (b, kind, more) => {
        const after = botScore({ ...b, bot: { ...b.bot, [kind]: b.bot[kind] + more } });
        expect(after).toBeLessThanOrEqual(botScore(b) + EPS);
      }),
    );
  });

  it('when no interaction at all, automation and a form submission, then at least 0.8 from any source but an unknown one', () => {
    fc.assert(
      fc.property(fc.constantFrom<SessionSource>('web', 'ios', 'android'), fc.boolean(), (src, crawler) => {
        expect(
          botScore({ bot: counts(), source: src, automation: true, crawler, tampering: 0, interactive: true }),
        ).toBeGreaterThanOrEqual(0.8);
      }),
    );
  });

  it('when a person interacted normally and nothing else is found, then the bot score is the floor', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 40, max: 5000 }),
        fc.integer({ min: 20, max: 500 }),
        source,
        (pointer, typing, src) => {
          const bot = counts({ mouse: pointer, keyboard: typing, touch: pointer });
          const b = { bot, source: src, automation: false, crawler: false, tampering: 0, interactive: true };
          expect(botScore(b)).toBeLessThan(0.03);
        },
      ),
    );
  });

  it('when a signal score rises or spoofed_ip appears, then risk_signals never falls and rises by at most weight times the change', () => {
    fc.assert(
      fc.property(signalScores, fc.boolean(), signal, unit, (s, spoofed, name, to) => {
        const lo = Math.min(s[name], to);
        const hi = Math.max(s[name], to);
        const before = riskSignalsScore({ ...s, [name]: lo }, spoofed);
        const after = riskSignalsScore({ ...s, [name]: hi }, spoofed);
        expect(after).toBeGreaterThanOrEqual(before - EPS);
        expect(after - before).toBeLessThanOrEqual(RISK_SIGNAL_WEIGHTS[name] * (hi - lo) + EPS);
        const unspoofed = riskSignalsScore(s, false);
        const withSpoofed = riskSignalsScore(s, true);
        expect(withSpoofed).toBeGreaterThanOrEqual(unspoofed - EPS);
        expect(withSpoofed - unspoofed).toBeLessThanOrEqual(RISK_SIGNAL_WEIGHTS.spoofed_ip + EPS);
      }),
    );
  });

  it('when another link is added or a link score rises, then multiple_accounts never falls and rises by at most 0.6 times the change', () => {
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 20 }), unit, unit, (ls, extra, to) => {
        const before = multipleAccountsScore(ls, false);
        const added = multipleAccountsScore([...ls, extra], false);
        expect(added).toBeGreaterThanOrEqual(before - EPS);
        expect(added - before).toBeLessThanOrEqual(MULTIPLE_ACCOUNTS.link_weight * extra + EPS);
        const [first, ...rest] = ls;
        if (first === undefined) return;
        const lo = Math.min(first, to);
        const hi = Math.max(first, to);
        const raisedFrom = multipleAccountsScore([lo, ...rest], false);
        const raisedTo = multipleAccountsScore([hi, ...rest], false);
        expect(raisedTo).toBeGreaterThanOrEqual(raisedFrom - EPS);
        expect(raisedTo - raisedFrom).toBeLessThanOrEqual(MULTIPLE_ACCOUNTS.link_weight * (hi - lo) + EPS);
        expect(multipleAccountsScore(ls, true)).toBe(0);
      }),
    );
  });

  it('when any part of the account score rises, then account_score never falls and rises by at most weight times the change', () => {
    const weightOf = {
      bot: ACCOUNT_WEIGHTS.bot,
      risk_signals: ACCOUNT_WEIGHTS.risk_signals,
      multiple_accounts: ACCOUNT_WEIGHTS.multiple_accounts,
    };
    fc.assert(
      fc.property(
        parts,
        fc.constantFrom('bot', 'risk_signals', 'multiple_accounts') as fc.Arbitrary<keyof typeof weightOf>,
        unit,
        (p, name, to) => {
          const lo = Math.min(p[name], to);
          const hi = Math.max(p[name], to);
          const before = accountScore({ ...p, [name]: lo });
          const after = accountScore({ ...p, [name]: hi });
          expect(after).toBeGreaterThanOrEqual(before - EPS);
          expect(after - before).toBeLessThanOrEqual(weightOf[name] * (hi - lo) + EPS);
        },
      ),
    );
  });

  it('when email_score rises, then account_score never falls and rises by at most (email_risk + email_trust) times the change', () => {
    fc.assert(
      fc.property(parts, emailScore, emailScore, (p, a, b) => {
        const lo = Math.min(a, b);
        const hi = Math.max(a, b);
        const before = accountScore({ ...p, email_score: lo });
        const after = accountScore({ ...p, email_score: hi });
        expect(after).toBeGreaterThanOrEqual(before - EPS);
        expect(after - before).toBeLessThanOrEqual(
          (ACCOUNT_WEIGHTS.email_risk + ACCOUNT_WEIGHTS.email_trust) * (hi - lo) + EPS,
        );
      }),
    );
  });

  it('when a risk fact is added anywhere in a session, then account_score never falls', () => {
    interface Facts {
      bot: BotInputs;
      signals: EvaluatedRiskSignalScores;
      spoofed: boolean;
      links: LinkEvidence[][];
      email?: number;
    }
    const score = (f: Facts) =>
      accountScore({
        bot: botScore(f.bot),
        risk_signals: riskSignalsScore(f.signals, f.spoofed),
        multiple_accounts: multipleAccountsScore(f.links.map(linkScore), false),
        email_score: f.email,
      });
    const facts: fc.Arbitrary<Facts> = fc.record({
      bot: botInputs,
      signals: signalScores,
      spoofed: fc.boolean(),
      links,
      email: fc.option(emailScore, { nil: undefined }),
    });
    const riskier: fc.Arbitrary<(f: Facts) => Facts> = fc.oneof(
      fc.constant((f: Facts) => ({ ...f, bot: { ...f.bot, automation: true } })),
      fc.constant((f: Facts) => ({ ...f, bot: { ...f.bot, crawler: true } })),
      fc.constant((f: Facts) => ({ ...f, spoofed: true })),
      fc
        .tuple(signal, unit)
        .map(([s, v]) => (f: Facts) => ({ ...f, signals: { ...f.signals, [s]: Math.max(f.signals[s], v) } })),
      fc.array(evidence, { minLength: 1, maxLength: 3 }).map((e) => (f: Facts) => ({ ...f, links: [...f.links, e] })),
      evidence.map((e) => (f: Facts) => {
        const [first, ...rest] = f.links;
        return first ? { ...f, links: [[...first, e], ...rest] } : f;
      }),
      emailScore.map((v) => (f: Facts) => ({ ...f, email: Math.max(f.email ?? 0, v) })),
    );
    fc.assert(
      fc.property(facts, riskier, (f, add) => {
        expect(score(add(f))).toBeGreaterThanOrEqual(score(f) - EPS);
      }),
    );
  });

  it('when decide is asked, then block gives Fake, allow gives Real, and otherwise Fake exactly when the reported score (3 decimals) reaches the threshold', () => {
    const list = fc.constantFrom('allow', 'block', 'main_account', 'beta', 'vip');
    fc.assert(
      fc.property(unit, unit, fc.array(list, { maxLength: 4 }), (score, threshold, lists) => {
        const d = decide(score, threshold, lists);
        if (lists.includes('block')) expect(d).toBe('Fake');
        else if (lists.includes('allow')) expect(d).toBe('Real');
        else expect(d).toBe(Math.round(score * 1000) / 1000 >= threshold ? 'Fake' : 'Real');
      }),
    );
  });

  it('when any sessions, then each average lies between the smallest and largest score of that signal', () => {
    const session = fc.record({
      time: fc.date({
        min: new Date('2020-01-01T00:00:00Z'),
        max: new Date('2027-01-01T00:00:00Z'),
        noInvalidDate: true,
      }),
      scores: signalScores,
      spoofedIp: fc.boolean(),
    });
    fc.assert(
      fc.property(
        fc.array(session, { maxLength: 12 }),
        fc.date({ min: new Date('2026-01-01T00:00:00Z'), max: new Date('2026-12-31T00:00:00Z'), noInvalidDate: true }),
        (sessions, now) => {
          const avg = riskSignalAverage(sessions, now);
          for (const [name, value] of Object.entries(avg) as [keyof typeof avg, number][]) {
            expect(inUnit(value)).toBe(true);
            if (sessions.length === 0) {
              expect(value).toBe(0);
              continue;
            }
            const values = sessions.map((s) => (name === 'spoofed_ip' ? (s.spoofedIp ? 1 : 0) : s.scores[name]));
            expect(value).toBeGreaterThanOrEqual(Math.min(...values) - 1e-9);
            expect(value).toBeLessThanOrEqual(Math.max(...values) + 1e-9);
          }
        },
      ),
    );
  });
});

// ---------------------------------------------------------------- docs/scoring.md agrees with the code

const DOC = readFileSync(path.join(__dirname, '../../docs/scoring.md'), 'utf8');

/** The rows of every markdown table in `text`, as arrays of trimmed cells (separator rows left out). */
function tableRows(text: string): [string, ...string[]][] {
  return text
    .split('\n')
    .filter((line) => /^\|.*\|\s*$/.test(line.trim()) && !/^\|[\s|:-]+\|\s*$/.test(line.trim()))
    .map(
      (line) =>
        line
          .trim()
          .slice(1, -1)
          .split('|')
          // A split has at least one piece.
          .map((c) => c.trim()) as [string, ...string[]],
    );
}

/** The text of `##`/`###` section `heading`, up to the next heading of the same or a higher level. */
function section(heading: string): string {
  const lines = DOC.split('\n');
  const start = lines.findIndex((l) => l.trim() === heading);
  if (start < 0) throw new Error(`docs/scoring.md has no heading "${heading}"`);
  const level = heading.indexOf(' ');
  const end = lines.findIndex((l, i) => i > start && /^#+ /.test(l) && l.indexOf(' ') <= level);
  return lines.slice(start + 1, end < 0 ? undefined : end).join('\n');
}

/** `{ 'A.b': 1 }` for every numeric constant and numeric member of an object constant. */
function flatten(module: Record<string, unknown>): Map<string, number> {
  const out = new Map<string, number>();
  for (const [name, value] of Object.entries(module)) {
    if (!/^[A-Z][A-Z0-9_]*$/.test(name)) continue;
    if (typeof value === 'number') out.set(name, value);
    else if (value && typeof value === 'object' && !Array.isArray(value)) {
      for (const [key, v] of Object.entries(value)) if (typeof v === 'number') out.set(`${name}.${key}`, v);
    }
  }
  return out;
}

/** The two-cell rows whose first cell is `code`, as a map from the code to the second cell. */
function keyed(text: string): Map<string, string> {
  const rows = tableRows(text).filter((r): r is [string, string] => r.length === 2 && /^`[^`]+`$/.test(r[0]));
  return new Map(rows.map(([k, v]) => [k.slice(1, -1), v]));
}

/** A number written in the doc matches `actual` to the precision the doc shows. */
function matchesShown(shown: string, actual: number): boolean {
  const decimals = (shown.split('.')[1] ?? '').length;
  return Math.abs(Number(shown) - actual) <= 0.5 * 10 ** -decimals + 1e-12;
}

describe('docs/scoring.md', () => {
  const code = new Map([
    ...flatten(constants),
    ...flatten({
      LINK_BASE_WEIGHTS: linking.LINK_BASE_WEIGHTS,
      LINK_HALVING_ACCOUNTS: linking.LINK_HALVING_ACCOUNTS,
      LEAST_EVIDENCE: linking.LEAST_EVIDENCE,
      DEFAULT_LINK_SCORE_FLOOR: linking.DEFAULT_LINK_SCORE_FLOOR,
      LINK_CAP,
      DEFAULT_DECISION_THRESHOLD,
      EVENT_RATE_CEILING,
      CHALLENGE_GRACE_MS,
    }),
  ]);
  // A row may have no second cell: its value is then undefined, which no constant equals.
  const documented = new Map<string, string | undefined>();
  for (const [first, second] of tableRows(DOC)) {
    const name = /^`([A-Z][A-Z0-9_]*(?:\.[a-z0-9_]+)?)`$/.exec(first ?? '')?.[1];
    if (!name) continue;
    if (documented.has(name)) throw new Error(`docs/scoring.md documents ${name} twice`);
    documented.set(name, second);
  }

  it("when the tables list a constant, then its value is the code's", () => {
    const drift = [...documented]
      .filter(([name, value]) => code.get(name) !== Number(value))
      .map(([n, v]) => `${n}: doc ${v}, code ${code.get(n)}`);
    expect(drift).toEqual([]);
  });

  it('when the code has a constant, then a table documents it', () => {
    expect([...code.keys()].filter((name) => !documented.has(name))).toEqual([]);
  });

  it('when the doc says per match type what reaches the default floor, then it is what the code computes', () => {
    const rows = tableRows(section('### When a pair is a link: the floor')).filter(
      (r) => r.length === 4 && r[0] !== 'Match type',
    );
    const alone = (type: MatchType) => {
      if (linking.CORROBORATING.has(type)) return 'never alone';
      if (type === 'browser') return 'any number';
      let n = 2;
      while (linkScore([{ type, sharedBy: n + 1 }]) >= linking.DEFAULT_LINK_SCORE_FLOOR) n++;
      return `${n} accounts`;
    };
    const documented = rows.flatMap(([types, limit, reaches]) =>
      [...types.matchAll(/`([a-z_]+)`/g)].map((m) => [m[1], limit, reaches]),
    );
    const computed = Object.keys(linking.LINK_BASE_WEIGHTS).map((t) => {
      const type = t as MatchType;
      const limit = linking.crowdLimit(type);
      return [type, Number.isFinite(limit) ? String(limit) : 'none', alone(type)];
    });
    expect(documented.sort()).toEqual(computed.sort());
  });

  it('when the signals registry has a signal, then the doc explains it under its own heading', () => {
    const documentedSignals = [...DOC.matchAll(/^### `([a-z_]+)`/gm)].map((m) => m[1]);
    expect(documentedSignals).toEqual(expect.arrayContaining([...SIGNALS.map((s) => s.name), 'spoofed_ip']));
  });

  describe('worked example', () => {
    const facts = keyed(section('### Facts'));
    const shared = tableRows(section('### Facts')).filter((r) => r[0].startsWith('acct-'));
    const result = keyed(section('### Result'));

    // The example's inputs, as the doc states them.
    const bot = counts({ mouse: 6, click: 2, keyboard: 0, touch: 0, clipboard: 2 });
    const botIn: BotInputs = { bot, source: 'web', automation: false, crawler: false, tampering: 0, interactive: true };
    const signals = cleanSignals({ vpn: 0.9, datacenter: 1, device_network_mismatch: 1, ip_reputation: 0.4 });
    const linkA: LinkEvidence[] = [
      { type: 'device', sharedBy: 2 },
      { type: 'network', sharedBy: 4 },
    ];
    const linkB: LinkEvidence[] = [{ type: 'name', sharedBy: 3 }];
    // The links over the project's floor (the default): a name alone is none.
    const linked = (...scores: number[]) => scores.filter((x) => x > 0 && x >= linking.DEFAULT_LINK_SCORE_FLOOR);
    const email = 0.5;
    const threshold = 0.8;

    it('when the doc states the facts, then they are the inputs computed here', () => {
      const stated: Record<string, string> = {
        source: 'web',
        interactive: 'true',
        automation: 'false',
        crawler: 'false',
        tampering: String(botIn.tampering),
        spoofed_ip: 'true',
        email_score: String(email),
        threshold: String(threshold),
      };
      for (const [k, v] of Object.entries(bot)) stated[`bot.${k}`] = String(v);
      for (const [k, v] of Object.entries(signals)) if (v !== 0) stated[`risk_signal_scores.${k}`] = String(v);
      expect(Object.fromEntries(facts)).toEqual(stated);
      expect(shared).toEqual([
        ['acct-A', 'device', '2'],
        ['acct-A', 'network', '4'],
        ['acct-B', 'name', '3'],
      ]);
    });

    it("when the code computes the example, then it gets the doc's numbers and decision", () => {
      const doubt = interactionDoubt(bot, 'web');
      const b = botScore(botIn);
      const r = riskSignalsScore(signals, true);
      const a = linkScore(linkA);
      const bLink = linkScore(linkB);
      const m = multipleAccountsScore(linked(a, bLink), false);
      const score = accountScore({ bot: b, risk_signals: r, multiple_accounts: m, email_score: email });
      const onMain = accountScore({
        bot: b,
        risk_signals: r,
        multiple_accounts: multipleAccountsScore(linked(a, bLink), true),
        email_score: email,
      });
      const computed: Record<string, number> = {
        interaction_doubt: doubt,
        bot: b,
        risk_signals: r,
        'link_score.acct-A': a,
        'link_score.acct-B': bLink,
        multiple_accounts: m,
        account_score: score,
        'account_score.main_account': onMain,
      };
      expect([...result.keys()].sort()).toEqual([...Object.keys(computed), 'decision'].sort());
      const wrong = Object.entries(computed)
        .filter(([k, v]) => !matchesShown(result.get(k) ?? 'NaN', v))
        .map(([k, v]) => `${k}: doc ${result.get(k)}, code ${v}`);
      expect(wrong).toEqual([]);
      expect(result.get('decision')).toBe(decide(score, threshold, []));
      expect(decide(score, threshold, ['allow'])).toBe('Real');
    });

    it("when the code breaks the example's scores down, then its terms are the receipt the doc prints, and they make the scores", () => {
      const b = botBreakdown({ ...botIn, doubt: interactionDoubt(botIn.bot, botIn.source) });
      const r = riskSignalsBreakdown(signals, true);
      const m = multipleAccountsBreakdown(linked(linkScore(linkA), linkScore(linkB)), false);
      const a = accountScoreBreakdown({
        bot: b.value,
        risk_signals: r.value,
        multiple_accounts: m.value,
        email_score: email,
      });
      const code = Object.entries({ bot: b, risk_signals: r, multiple_accounts: m, account_score: a }).flatMap(
        ([score, x]) => [
          ...x.terms.map((t) => [score, t.name, t] as const),
          ...(x.discount ? [[score, `${x.discount.name} (discount)`, x.discount] as const] : []),
        ],
      );
      const doc = tableRows(section('### Its receipt')).filter((row) => row.length === 6 && row[0] !== 'Score');
      expect(doc.map(([score, name]) => `${score} ${name}`)).toEqual(code.map(([score, name]) => `${score} ${name}`));
      const wrong = doc.flatMap(([score, name, ...shown], i) => {
        const t = code[i]![2];
        const actual = [t.weight, t.strength, t.p, t.count];
        return shown.some((v, k) => !matchesShown(v, actual[k]!))
          ? [`${score} ${name}: doc ${shown}, code ${actual}`]
          : [];
      });
      expect(wrong).toEqual([]);
      for (const x of [b, r, m, a]) expect(combine(x.terms, x.discount ?? undefined)).toBe(x.value);
      expect(a.value).toBe(
        accountScore({ bot: b.value, risk_signals: r.value, multiple_accounts: m.value, email_score: email }),
      );
    });
  });
});
