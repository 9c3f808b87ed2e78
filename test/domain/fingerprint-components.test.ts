/**
 * The fingerprint the server derives from the posted components against the posted one
 * (`fingerprint_mismatch`), and the components against the post's other facts
 * (`fingerprint_inconsistent:<component>`), purely.
 */
import murmur from 'murmurhash3js-revisited';
import { mathResults } from '../../packages/web/src/fingerprint';
import type { FingerprintComponents } from '../../src/api-types';
import { deriveFingerprint, withDerivedFingerprint } from '../../src/domain/session/fingerprint';
import type { ReceivedFacts } from '../../src/domain/session/integrity';
import type { SdkFacts } from '../../src/domain/session/sdk-facts';
import { deviceRiskConditions } from '../../src/domain/signals/device';
import { claimsV8, userAgentOs, V8_MATH } from '../../src/domain/signals/fingerprint';
import { receivedConditions } from '../../src/domain/signals/received';
import { CHROME_MAC } from '../helpers/evaluation';
import { MAC_GPU, macComponents } from '../helpers/fingerprint';

const CHROME_WIN =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/150.0.0.0 Safari/537.36';
const FIREFOX_WIN = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:140.0) Gecko/20100101 Firefox/140.0';
const CHROME_ANDROID =
  'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/150.0.0.0 Mobile Safari/537.36';
const CHROME_IOS =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/150.0.0.0 Mobile/15E148 Safari/604.1';
const SAFARI_MAC =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Safari/605.1.15';

const components = macComponents;

/** A Chrome on a Mac post as the SDK makes it: facts and components read from the same calls. */
const person = (c: FingerprintComponents = components(), received?: Partial<ReceivedFacts>): SdkFacts => {
  const sdk: SdkFacts = {
    source: 'web',
    device_id: 'd-1',
    user_agent: CHROME_MAC,
    languages: ['en-GB'],
    screen: { width: 1728, height: 1117 },
    cpu_cores: 8,
    memory: 8,
    gpu: MAC_GPU,
    browser_fingerprint: deriveFingerprint(c),
    fingerprint_components: c,
    events: { mouse: 0, click: 0, keyboard: 0, touch: 0, clipboard: 0 },
  };
  return { ...sdk, received: { user_agent: CHROME_MAC, integrity: 'valid', ...received } };
};

const present = (sdk: SdkFacts) =>
  Object.entries(receivedConditions(sdk))
    .filter(([, on]) => on)
    .map(([name]) => name);

describe('the fingerprint derived from the components', () => {
  it('when derived, then it is MurmurHash3 x86 128 of the canonical JSON, whatever the order of the members', () => {
    const c = components({ gpu: 'ANGLE (Apple, “M1” \u2028 Metal) \\ "q" 😀' });
    const canonical =
      '{"canvas":"5f1c0b0e2d3a4c5b6a7988776655aa10","cores":8,"fonts":' +
      JSON.stringify(c.fonts) +
      ',"gpu":"ANGLE (Apple, “M1” \u2028 Metal) \\\\ \\"q\\" 😀","math":' +
      JSON.stringify(V8_MATH) +
      ',"memory":8,"platform":"MacIntel","screen":[1728,1117,30],"touch":0,"vendor":"Google Inc."}';
    expect(deriveFingerprint(c)).toBe(murmur.x86.hash128(Buffer.from(canonical, 'utf8')));
    const reversed = Object.fromEntries(Object.entries(c).reverse()) as FingerprintComponents;
    expect(deriveFingerprint(reversed)).toBe(deriveFingerprint(c));
    expect(deriveFingerprint(components({ cores: 4 }))).not.toBe(deriveFingerprint(c));
  });

  it("when the post carries components, then the server's fingerprint replaces the posted one, which is kept as claimed", () => {
    const c = components();
    expect(withDerivedFingerprint({ browser_fingerprint: 'made-up', fingerprint_components: c })).toEqual({
      facts: { browser_fingerprint: deriveFingerprint(c), fingerprint_components: c },
      claimed: 'made-up',
    });
    expect(withDerivedFingerprint({ fingerprint_components: c })).toEqual({
      facts: { browser_fingerprint: deriveFingerprint(c), fingerprint_components: c },
    });
  });

  it('when the post carries no components (an older SDK bundle), then its fingerprint stands as posted', () => {
    expect(withDerivedFingerprint({ browser_fingerprint: 'as-posted' })).toEqual({
      facts: { browser_fingerprint: 'as-posted' },
    });
  });

  it('when the claimed fingerprint differs from the derived one, then fingerprint_mismatch; when equal or not claimed, then absent', () => {
    const c = components();
    expect(present(person(c, { claimed_fingerprint: 'f'.repeat(32) }))).toEqual(['fingerprint_mismatch']);
    expect(present(person(c, { claimed_fingerprint: deriveFingerprint(c) }))).toEqual([]);
    expect(present(person(c))).toEqual([]);
  });
});

describe('fingerprint_inconsistent', () => {
  const inconsistent = (sdk: SdkFacts) => present(sdk).filter((n) => n.startsWith('fingerprint_inconsistent:'));

  it('when each component agrees with its fact, then none', () => {
    expect(inconsistent(person())).toEqual([]);
  });

  it('when the GPU renderer, the cores or the memory differ from the posted facts, then that component', () => {
    expect(inconsistent(person(components({ gpu: 'Mali-G78' })))).toEqual(['fingerprint_inconsistent:gpu']);
    expect(inconsistent(person(components({ cores: 16 })))).toEqual(['fingerprint_inconsistent:cores']);
    expect(inconsistent(person(components({ memory: 4 })))).toEqual(['fingerprint_inconsistent:memory']);
  });

  it('when a component or its fact is empty (the browser could not give it), then nothing is compared', () => {
    expect(inconsistent(person(components({ gpu: '', cores: 0, memory: 0 })))).toEqual([]);
    const { gpu: _g, cpu_cores: _c, memory: _m, screen: _s, ...bare } = person();
    expect(inconsistent(bare)).toEqual([]);
  });

  it('when the screen differs, then screen; when it is only turned (width and height swapped), then none', () => {
    expect(inconsistent(person(components({ screen: [2560, 1440, 30] })))).toEqual(['fingerprint_inconsistent:screen']);
    expect(inconsistent(person(components({ screen: [1117, 1728, 30] })))).toEqual([]);
  });

  it("when navigator.platform is of another system than the user agent's, then platform, at a lower weight", () => {
    const sdk = person(components({ platform: 'Linux x86_64' }));
    expect(inconsistent(sdk)).toEqual(['fingerprint_inconsistent:platform']);
    expect(deviceRiskConditions(sdk).find((c) => c.name === 'fingerprint_inconsistent:platform')).toMatchObject({
      weight: 0.6,
      bot: 'tampering',
    });
  });

  it.each([
    ['Android as Linux', CHROME_ANDROID, 'Linux armv8l'],
    ['an iPhone asking for desktop sites', SAFARI_MAC, 'iPhone'],
    ['ChromeOS', 'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 Chrome/150.0.0.0', 'Linux x86_64'],
    ['a platform of no known family', 'Mozilla/5.0 (X11; FreeBSD amd64; rv:140.0) Firefox/140.0', 'FreeBSD amd64'],
    ['an empty platform', CHROME_WIN, ''],
  ])('when %s, then the platform agrees', (_case, ua, platform) => {
    const sdk = { ...person(components({ platform })), user_agent: ua };
    expect(receivedConditions(sdk)['fingerprint_inconsistent:platform']).toBe(false);
  });

  it("when the user agent claims a V8 browser, then the maths must be V8's: within a few units in the last place, not rounded, none missing", () => {
    const ulp = (x: number) => Math.abs(x) * 2 ** -52;
    const nudged = V8_MATH.map((x) => x + 2 * ulp(x));
    expect(inconsistent(person(components({ math: nudged })))).toEqual([]);
    const rounded = V8_MATH.map((x) => Number(x.toFixed(10)));
    expect(inconsistent(person(components({ math: rounded })))).toEqual(['fingerprint_inconsistent:math']);
    expect(inconsistent(person(components({ math: [] })))).toEqual(['fingerprint_inconsistent:math']);
    expect(inconsistent(person(components({ math: [...V8_MATH.slice(0, 8), null] })))).toEqual([
      'fingerprint_inconsistent:math',
    ]);
  });

  it('when the user agent claims another engine (Firefox, Safari, Chrome on iOS), then the maths are not compared', () => {
    const odd = components({ math: V8_MATH.map((x) => Number(x.toFixed(10))) });
    for (const ua of [FIREFOX_WIN, SAFARI_MAC, CHROME_IOS]) {
      expect(receivedConditions({ ...person(odd), user_agent: ua })['fingerprint_inconsistent:math']).toBe(false);
    }
  });

  it('when the web post has no components, then none of the fingerprint conditions', () => {
    const { fingerprint_components: _c, ...old } = person();
    expect(present({ ...old, browser_fingerprint: 'anything' })).toEqual([]);
  });
});

describe('the engines and systems the user agent claims', () => {
  it("when the SDK's maths run in this process's V8, then they give V8_MATH, bit for bit", () => {
    expect(mathResults()).toEqual([...V8_MATH]);
  });

  it('when user agents are read, then their system and engine', () => {
    expect([CHROME_WIN, CHROME_ANDROID, CHROME_IOS, SAFARI_MAC].map(userAgentOs)).toEqual([
      'windows',
      'android',
      'ios',
      'mac',
    ]);
    expect([CHROME_WIN, CHROME_ANDROID, CHROME_IOS, SAFARI_MAC, FIREFOX_WIN].map(claimsV8)).toEqual([
      true,
      true,
      false,
      false,
      false,
    ]);
    expect(claimsV8('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 HeadlessChrome/150.0.0.0 Safari/537.36')).toBe(
      true,
    );
    expect(
      claimsV8('Mozilla/5.0 (Windows NT 10.0) AppleWebKit/537.36 Chrome/70.0.3538.102 Safari/537.36 Edge/18.19041'),
    ).toBe(false);
  });
});
