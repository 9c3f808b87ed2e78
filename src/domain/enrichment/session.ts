/**
 * The enriched session, from the SDK's facts, the connection's address and what the IP data
 * says about it. Pure: the IP facts are looked up at the edge and passed in.
 *
 */
import type { EvaluatedNetwork, EvaluatedSession, Location, Mobile } from '../../api-types';
import type { SdkFacts } from '../session/sdk-facts';
import { EMPTY_HISTORY, evaluateSignals, type IpListName } from '../signals';
import { normaliseIp } from './ip';
import { trueCountry } from './true-country';
import { parseUserAgent } from './user-agent';

/** What IP data knows about an address; every member may be missing. */
export interface IpFacts {
  location?: Location;
  network?: Omit<EvaluatedNetwork, 'ip_address'>;
}

/**
 * The IP-data port: looks up what the service's IP data says about an address (the edge:
 * src/geo/ip-data.ts), given the IP lists the address is on (the relay list makes it
 * `private_relay`).
 */
export interface IpIntelligence {
  lookup(ip: string, lists?: ReadonlySet<IpListName>): IpFacts;
}

/** What else the edge found about the connection: its IP lists, and the countries of the browser's leaked addresses. */
export interface NetworkEvidence {
  lists?: ReadonlySet<IpListName>;
  /** The countries of the public WebRTC addresses other than the connection's (enrichment/ip.ts leakedAddresses). */
  leakedCountries?: readonly string[];
}

const MOBILE_FIELDS = [
  'brand',
  'model',
  'system_memory_gb',
  'boot_count',
  'system_uptime_days',
  'battery_level',
  'languages',
  'oem_app_integrity',
  'oem_device_integrity',
] as const;

function mobileFacts(sdk: SdkFacts): Mobile {
  if (sdk.source === 'web' || !sdk.mobile) return {};
  const out: Record<string, unknown> = {};
  for (const key of MOBILE_FIELDS) out[key] = sdk.mobile[key] ?? null;
  return out as Mobile;
}

function defined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined && v !== null && v !== '')) as T;
}

/**
 * The enriched session. Its risk signals are the registry's (src/domain/signals) over the
 * session's own facts only; evaluations recompute them with the service's history and the IP
 * lists (see usecases/evaluation/).
 */
export function enrichSession(
  sdk: SdkFacts,
  ip: string,
  startTime: Date,
  ipFacts: IpFacts,
  evidence: NetworkEvidence = {},
): EvaluatedSession {
  const ua = parseUserAgent(sdk.user_agent, sdk.client_hints);
  const located = defined({ ...(ipFacts.location ?? {}) });
  // A located address always carries zip_code, as the published session shape does: '' when the
  // geolocation data has no postal code (the shipped DB-IP Lite data has none; GEOIP_CITY_DB does).
  const location = Object.keys(located).length ? { ...located, zip_code: located.zip_code ?? '' } : located;
  const country = trueCountry({
    exitCountry: location.country_code,
    connectionType: ipFacts.network?.connection_type,
    lists: evidence.lists ?? new Set(),
    leakedCountries: evidence.leakedCountries ?? [],
    browserTimezone: sdk.timezone,
  });
  const base: EvaluatedSession = {
    source: sdk.source,
    source_version: sdk.source === 'web' ? null : (sdk.source_version ?? null),
    start_time: startTime.toISOString(),
    ...(country ? { true_country_code: country } : {}),
    device_id: sdk.device_id,
    network: defined({ ip_address: normaliseIp(ip), ...(ipFacts.network ?? {}) }),
    location,
    browser: defined({
      type: ua.browser.type,
      version: ua.browser.version,
      language: sdk.languages?.[0],
      user_agent: sdk.user_agent,
      timezone: sdk.timezone,
    }),
    device: defined({
      category: ua.device.category,
      type: ua.device.type,
      os: ua.device.os,
      cpu_cores: sdk.cpu_cores,
      memory: sdk.memory === undefined ? undefined : Math.max(sdk.memory > 0 ? 1 : 0, Math.round(sdk.memory)),
      gpu: sdk.gpu,
      screen_width: sdk.screen?.width,
      screen_height: sdk.screen?.height,
    }),
    bot: {
      mouse_num_events: sdk.events?.mouse ?? 0,
      click_num_events: sdk.events?.click ?? 0,
      keyboard_num_events: sdk.events?.keyboard ?? 0,
      touch_num_events: sdk.events?.touch ?? 0,
      clipboard_num_events: sdk.events?.clipboard ?? 0,
    },
    risk_signals: {} as EvaluatedSession['risk_signals'],
    risk_signal_scores: {} as EvaluatedSession['risk_signal_scores'],
    risk_signal_details: { network: [], device: [] },
    mobile: mobileFacts(sdk),
  };
  return {
    ...base,
    ...evaluateSignals({
      now: startTime,
      sdk,
      session: base,
      ipLists: evidence.lists ?? new Set(),
      history: EMPTY_HISTORY,
    }),
  };
}

/** Identity facts: a later post of the same session cannot change them. */
const IDENTITY: (keyof SdkFacts)[] = [
  'source',
  'source_version',
  'device_id',
  'browser_fingerprint',
  'fingerprint_components',
  'user_agent',
  'client_hints',
  'languages',
  'timezone',
  'timezone_offset_minutes',
  'screen',
  'cpu_cores',
  'memory',
  'gpu',
  'mobile',
];

const union = (a: string[] | undefined, b: string[] | undefined, max: number) =>
  a || b ? [...new Set([...(a ?? []), ...(b ?? [])])].slice(0, max) : undefined;

/** Cumulative counts of two posts, each the larger (a post sent late never lowers them). */
function maxCounts<T extends Record<string, number | undefined>>(a: T | undefined, b: T | undefined): T | undefined {
  if (!a && !b) return undefined;
  const merged: Record<string, number | undefined> = { ...a };
  for (const [name, count] of Object.entries(b ?? {})) merged[name] = Math.max(merged[name] ?? 0, count ?? 0);
  return merged as T;
}

/**
 * A later post merged into the session's facts: identity facts stay as first posted, event
 * and input counts never go down, automation/tampering/WebRTC findings accumulate, the device location
 * is the latest given.
 */
export function mergeSdkFacts(first: SdkFacts, later: SdkFacts): SdkFacts {
  const merged: SdkFacts = { ...first, ...later };
  for (const key of IDENTITY) {
    if (first[key] === undefined) delete merged[key];
    else (merged as Record<string, unknown>)[key] = first[key];
  }
  const events = maxCounts(first.events, later.events);
  if (events) merged.events = events;
  const input = maxCounts(first.input, later.input);
  if (input) merged.input = input;
  const webdriver = Boolean(first.automation?.webdriver || later.automation?.webdriver);
  const signals = union(first.automation?.signals, later.automation?.signals, 32);
  if (first.automation || later.automation) merged.automation = { webdriver, ...(signals ? { signals } : {}) };
  const tampering = union(first.tampering, later.tampering, 32);
  if (tampering) merged.tampering = tampering;
  const webrtc = union(first.webrtc_ips, later.webrtc_ips, 16);
  if (webrtc) merged.webrtc_ips = webrtc;
  if (!later.geolocation && first.geolocation) merged.geolocation = first.geolocation;
  return merged;
}
