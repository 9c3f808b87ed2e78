/**
 * Conditions of `device_risk` from what the server saw of the posts against what the SDK
 * claims (web sessions only: a native app's HTTP library has its own user agent): the request's
 * `User-Agent` and `Sec-CH-UA*` headers against the posted user agent and client hints, its
 * `Accept-Language` against the posted languages, the challenge binding's verdict, the events
 * of the post that made the session against the time since its challenge, and the fingerprint
 * the server derived from the posted components against the one posted and the other facts.
 */
import type { IngestEvents } from '../../api-types';
import type { SdkFacts } from '../session/sdk-facts';
import { componentContradictions } from './fingerprint';

/** Weights of the conditions (docs/scoring.md, `device_risk`). */
export const RECEIVED_WEIGHTS = {
  replayed_payload: 0.9,
  forged_payload: 0.8,
  user_agent_header_mismatch: 0.8,
  client_hints_header_mismatch: 0.7,
  accept_language_mismatch: 0.6,
  events_outpace_challenge: 0.8,
  fingerprint_mismatch: 0.8,
  'fingerprint_inconsistent:gpu': 0.8,
  'fingerprint_inconsistent:screen': 0.8,
  'fingerprint_inconsistent:cores': 0.8,
  'fingerprint_inconsistent:memory': 0.8,
  'fingerprint_inconsistent:math': 0.8,
  // Lower: a person's user-agent switcher rewrites the user agent and often not the platform.
  'fingerprint_inconsistent:platform': 0.6,
} as const satisfies Record<string, number>;

/**
 * The most events of each kind a browser delivers in a second (docs/scoring.md, "The first post's
 * timing"): Chromium dispatches `mousemove`, `wheel` and `touchmove` at most once per rendered
 * frame, and the mouse's own reports come at 1000 Hz at most on all but gaming mice, for a
 * browser that does not; a key held down repeats at the system's rate; a click is a press and a
 * release of a button.
 */
export const EVENT_RATE_CEILING = {
  mouse: 1000,
  touch: 500,
  click: 25,
  keyboard: 40,
  clipboard: 40,
} as const satisfies Record<keyof IngestEvents, number>;

/** Time allowed for events the SDK counts before its challenge is issued: while the request travels to the server. */
export const CHALLENGE_GRACE_MS = 100;

export type ReceivedCondition = keyof typeof RECEIVED_WEIGHTS;

/** The brands of a `Sec-CH-UA` header (`"Chromium";v="142", "Not_A Brand";v="24"`), as `brand/version`, sorted. */
export function headerBrands(header: string): string[] {
  const brands: string[] = [];
  for (const m of header.matchAll(/"((?:[^"\\]|\\.)*)"\s*;\s*v\s*=\s*"([^"]*)"/g)) {
    brands.push(`${m[1]!.replace(/\\(.)/g, '$1')}/${m[2]}`);
  }
  return brands.sort();
}

const unquote = (value: string) => value.trim().replace(/^"(.*)"$/, '$1');

function clientHintsMismatch(sdk: SdkFacts): boolean {
  const r = sdk.received;
  if (r?.sec_ch_ua === undefined) return false;
  const hints = sdk.client_hints;
  if (!hints?.brands) return true;
  const posted = hints.brands.map((b) => `${b.brand}/${b.version}`).sort();
  if (posted.join('\n') !== headerBrands(r.sec_ch_ua).join('\n')) return true;
  if (
    r.sec_ch_ua_mobile !== undefined &&
    hints.mobile !== undefined &&
    (r.sec_ch_ua_mobile.trim() === '?1') !== hints.mobile
  )
    return true;
  if (
    r.sec_ch_ua_platform !== undefined &&
    hints.platform !== undefined &&
    unquote(r.sec_ch_ua_platform) !== hints.platform
  )
    return true;
  return false;
}

/** The most preferred tag of an `Accept-Language` header (highest q, first on ties), lower case; undefined for none or `*`. */
export function preferredLanguage(header: string): string | undefined {
  let best: { tag: string; q: number } | undefined;
  for (const part of header.split(',')) {
    const [tag = '', ...params] = part.trim().split(';');
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    if (!tag || tag === '*' || !Number.isFinite(q)) continue;
    if (!best || q > best.q) best = { tag: tag.toLowerCase(), q };
  }
  return best?.tag;
}

function acceptLanguageMismatch(sdk: SdkFacts): boolean {
  const header = sdk.received?.accept_language;
  const first = sdk.languages?.[0];
  if (header === undefined || !first) return false;
  const preferred = preferredLanguage(header);
  return preferred !== undefined && preferred !== first.toLowerCase();
}

/** The post that made the session carried more events of a kind than the time since its challenge allows. */
function eventsOutpaceChallenge(sdk: SdkFacts): boolean {
  const first = sdk.received?.first_post;
  if (!first) return false;
  const seconds = (Math.max(0, first.challenge_age_ms) + CHALLENGE_GRACE_MS) / 1000;
  return (Object.keys(EVENT_RATE_CEILING) as (keyof IngestEvents)[]).some(
    (kind) => (first.events[kind] ?? 0) > EVENT_RATE_CEILING[kind] * seconds,
  );
}

/** Which of the conditions hold for the session. */
export function receivedConditions(sdk: SdkFacts): Record<ReceivedCondition, boolean> {
  const r = sdk.received;
  const web = sdk.source === 'web' && r !== undefined;
  const contradicts = componentContradictions(sdk);
  return {
    replayed_payload: r?.integrity === 'replayed',
    forged_payload: r?.integrity === 'forged',
    user_agent_header_mismatch: web && sdk.user_agent !== undefined && r.user_agent !== sdk.user_agent,
    client_hints_header_mismatch: web && clientHintsMismatch(sdk),
    accept_language_mismatch: web && acceptLanguageMismatch(sdk),
    events_outpace_challenge: web && eventsOutpaceChallenge(sdk),
    fingerprint_mismatch: r?.claimed_fingerprint !== undefined && r.claimed_fingerprint !== sdk.browser_fingerprint,
    'fingerprint_inconsistent:gpu': contradicts.gpu,
    'fingerprint_inconsistent:screen': contradicts.screen,
    'fingerprint_inconsistent:cores': contradicts.cores,
    'fingerprint_inconsistent:memory': contradicts.memory,
    'fingerprint_inconsistent:math': contradicts.math,
    'fingerprint_inconsistent:platform': contradicts.platform,
  };
}
