/**
 * The first post's events against the time since its challenge (`events_outpace_challenge`),
 * purely: what a re-signed copy of a real browser's post gives away when it is sent moments
 * after the challenge it is bound to.
 */
import { challengeAgeMs, CHALLENGE_TTL_MS, type ReceivedFacts } from '../../src/domain/session/integrity';
import type { SdkFacts } from '../../src/domain/session/sdk-facts';
import { deviceBotEvidence, deviceRiskConditions } from '../../src/domain/signals/device';
import { CHALLENGE_GRACE_MS, EVENT_RATE_CEILING, receivedConditions } from '../../src/domain/signals/received';
import { CHROME_MAC } from '../helpers/evaluation';

/** A Chrome on a Mac post as the SDK makes it, bound to a valid challenge. */
const person = (received?: Partial<ReceivedFacts>): SdkFacts => ({
  source: 'web',
  device_id: 'd-1',
  user_agent: CHROME_MAC,
  languages: ['en-GB'],
  events: { mouse: 0, click: 0, keyboard: 0, touch: 0, clipboard: 0 },
  received: { user_agent: CHROME_MAC, integrity: 'valid', ...received },
});

const present = (sdk: SdkFacts) =>
  Object.entries(receivedConditions(sdk))
    .filter(([, on]) => on)
    .map(([name]) => name);

const firstPost = (challenge_age_ms: number, events: SdkFacts['events'] = {}) => ({
  first_post: { challenge_age_ms, events: events ?? {} },
});

describe('challengeAgeMs', () => {
  it('when a challenge expires CHALLENGE_TTL_MS after it was issued, then its age is the time since then', () => {
    const now = new Date('2026-12-07T12:00:00Z');
    const record = {
      id: 'c'.repeat(32),
      projectId: 'p',
      key: Buffer.alloc(32),
      expiresAt: new Date(now.getTime() + CHALLENGE_TTL_MS - 1500),
      sessionId: null,
    };
    expect(challengeAgeMs(record, now)).toBe(1500);
  });
});

describe('events_outpace_challenge', () => {
  it("when a real browser's first post carries no events, long or shortly after its challenge, then it is absent", () => {
    expect(present(person(firstPost(40)))).toEqual([]);
    expect(present(person(firstPost(1300)))).toEqual([]);
  });

  it('when a first post carries 200 mouse events 50 ms after its challenge, then it is present and counts as tampering', () => {
    const sdk = person(firstPost(50, { mouse: 200, click: 0, keyboard: 0 }));
    expect(present(sdk)).toEqual(['events_outpace_challenge']);
    const condition = deviceRiskConditions(sdk).find((c) => c.name === 'events_outpace_challenge');
    expect(condition).toMatchObject({ present: true, weight: 0.8, bot: 'tampering' });
    expect(deviceBotEvidence(sdk).tampering).toBe(0.8);
  });

  it("when the benchmark forger's counts (208 mouse, 4 clicks, 45 keys) come 100 ms after the challenge, then it is present", () => {
    expect(present(person(firstPost(100, { mouse: 208, click: 4, keyboard: 45 })))).toEqual([
      'events_outpace_challenge',
    ]);
  });

  it('when the same counts come 2 s after the challenge (a person can make them in that time), then it is absent', () => {
    expect(present(person(firstPost(2000, { mouse: 208, click: 4, keyboard: 45 })))).toEqual([]);
  });

  it.each(Object.keys(EVENT_RATE_CEILING) as (keyof typeof EVENT_RATE_CEILING)[])(
    'when %s events are exactly at the ceiling for the time, then absent; one more, then present',
    (kind) => {
      const age = 900;
      const ceiling = (EVENT_RATE_CEILING[kind] * (age + CHALLENGE_GRACE_MS)) / 1000;
      expect(Number.isInteger(ceiling)).toBe(true);
      expect(present(person(firstPost(age, { [kind]: ceiling })))).toEqual([]);
      expect(present(person(firstPost(age, { [kind]: ceiling + 1 })))).toEqual(['events_outpace_challenge']);
    },
  );

  it('when the session was stored before the first post was kept, or is native, then it is absent', () => {
    expect(present({ ...person(), events: { mouse: 5000 } })).toEqual([]);
    const native: SdkFacts = { ...person(firstPost(10, { touch: 900 })), source: 'android' };
    expect(receivedConditions(native).events_outpace_challenge).toBe(false);
  });
});
