/**
 * The web SDK's fingerprint components (openapi.yaml, `FingerprintComponents`) against the post's
 * other facts: the SDK reads each of them from the same browser call as the fact it is compared
 * with, so in the SDK's own post they agree, whatever an extension made that call return. A
 * post whose components contradict its facts was put together by something else.
 */
import type { FingerprintComponents } from '../../api-types';
import type { SdkFacts } from '../session/sdk-facts';

/**
 * What V8 (every Chromium browser) returns for the components' `math`, in their order, measured
 * in Node.js 20 (V8 11.3) and Chromium 150 on x86-64: V8 computes them with its own port of
 * fdlibm, not the system's maths library, so they do not vary with the operating system.
 */
export const V8_MATH = [
  1.4474840516030247, 0.881373587019543, 0.5493061443340548, 4.641588833612779, 1.5430806348152437, 1.718281828459045,
  1.1752011936438014, -1.4214488238747245, 2.3978952727983707,
] as const;

/**
 * How far (relative) a V8 result may be from V8_MATH: 16 units in the last place, as a build for
 * another processor may fuse a multiply and an add and round differently in the last bits (not
 * measured here). Far below what an invented or rounded value is off by.
 */
export const V8_MATH_TOLERANCE = 2 ** -48;

/** The components checked, each against what it must agree with. */
export type CheckedComponent = 'gpu' | 'screen' | 'cores' | 'memory' | 'platform' | 'math';

type Os = 'windows' | 'mac' | 'ios' | 'android' | 'chromeos' | 'linux';

/** The operating system a user agent names (undefined when none of these). */
export function userAgentOs(ua: string): Os | undefined {
  if (/Windows Phone/.test(ua)) return undefined;
  if (/Windows NT|Win64|WOW64/.test(ua)) return 'windows';
  if (/iPhone|iPad|iPod/.test(ua)) return 'ios';
  if (/Android/.test(ua)) return 'android';
  if (/CrOS/.test(ua)) return 'chromeos';
  if (/Macintosh|Mac OS X/.test(ua)) return 'mac';
  if (/Linux|X11/.test(ua)) return 'linux';
  return undefined;
}

/**
 * The family a `navigator.platform` belongs to. Apple's platforms are one family, as an iPhone or
 * iPad asking for desktop sites says `MacIntel` with a Mac user agent; Linux holds Android and
 * ChromeOS (`Linux armv8l`, `Linux x86_64`), as their desktop mode says X11 Linux.
 */
function platformFamily(platform: string): 'windows' | 'apple' | 'linux' | undefined {
  if (/^Win/i.test(platform)) return 'windows';
  if (/^(Mac|iPhone|iPad|iPod)/i.test(platform)) return 'apple';
  if (/^(Linux|Android)/i.test(platform)) return 'linux';
  return undefined;
}

const FAMILY_OF: Record<Os, 'windows' | 'apple' | 'linux'> = {
  windows: 'windows',
  mac: 'apple',
  ios: 'apple',
  android: 'linux',
  chromeos: 'linux',
  linux: 'linux',
};

function platformContradicts(c: FingerprintComponents, ua: string | undefined): boolean {
  const os = ua === undefined ? undefined : userAgentOs(ua);
  const family = platformFamily(c.platform);
  return os !== undefined && family !== undefined && FAMILY_OF[os] !== family;
}

/** The user agent claims a V8 browser: Chromium's token, not EdgeHTML's (Chakra), not on iOS (WebKit only). */
export function claimsV8(ua: string): boolean {
  return /Chrome\/\d/.test(ua) && !/\bEdge\/\d/.test(ua) && userAgentOs(ua) !== 'ios';
}

function mathContradicts(c: FingerprintComponents, ua: string | undefined): boolean {
  if (ua === undefined || !claimsV8(ua)) return false;
  if (c.math.length !== V8_MATH.length) return true;
  return c.math.some((m, i) => m === null || Math.abs(m - V8_MATH[i]!) > Math.abs(V8_MATH[i]!) * V8_MATH_TOLERANCE);
}

function screenContradicts(c: FingerprintComponents, screen: SdkFacts['screen']): boolean {
  if (!screen) return false;
  const [width = 0, height = 0] = c.screen;
  // As a pair in either order: a phone turned between the two reads swaps them.
  const same = (a: number, b: number) => a === screen.width && b === screen.height;
  return !same(width, height) && !same(height, width);
}

/** Which components contradict the post's other facts (web posts with components only; a fact left out contradicts nothing). */
export function componentContradictions(sdk: SdkFacts): Record<CheckedComponent, boolean> {
  const c = sdk.source === 'web' ? sdk.fingerprint_components : undefined;
  if (!c) return { gpu: false, screen: false, cores: false, memory: false, platform: false, math: false };
  return {
    gpu: c.gpu !== '' && sdk.gpu !== undefined && sdk.gpu !== '' && c.gpu !== sdk.gpu,
    screen: screenContradicts(c, sdk.screen),
    cores: c.cores > 0 && sdk.cpu_cores !== undefined && sdk.cpu_cores > 0 && c.cores !== sdk.cpu_cores,
    memory: c.memory > 0 && sdk.memory !== undefined && c.memory !== sdk.memory,
    platform: platformContradicts(c, sdk.user_agent),
    math: mathContradicts(c, sdk.user_agent),
  };
}
