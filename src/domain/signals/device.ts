/** Signals about the device: device_risk, device_network_mismatch, location_spoofing. */
import { countries } from 'countries-list';
import { parseUserAgent } from '../enrichment/user-agent';
import type { SdkFacts } from '../session/sdk-facts';
import { noisyOr, round3 } from '../numbers';
import { findingOf, type Finding, type SignalContext } from './context';
import { distanceKm, ipLocationAccuracyKm, zoneGapMinutes, zonesOfCountry } from './geo';
import { RECEIVED_WEIGHTS, receivedConditions, type ReceivedCondition } from './received';
import { INPUT_WEIGHTS, inputConditions, type InputCondition } from './input';

/** Browser and IP zones this far apart (minutes), in a zone not of the IP's country, do not fit. */
export const MISMATCH_TIMEZONE_GAP_MIN = 60;
/** A device location this far (km) beyond both locations' accuracy contradicts the IP's. */
export const GEOLOCATION_SPOOF_KM = 500;

/** Automation signals that mean a program, not a person, drives the browser (deviceRiskConditions: `bot: 'automation'`). */
const AUTOMATION_CONDITION =
  /^(webdriver|headless|selenium|phantomjs|nightmare|electron|driver_global|puppeteer|playwright|synthetic_events|cdp)/;

/** The web SDK's summary of its tampering findings: it heads the list whenever it found any. */
const TAMPERING_SUMMARY = 'browser_tampering_detected';

/**
 * The SDK's tampering findings that device_risk weighs: every one but `timezone_spoofing`
 * (location_spoofing's), and the summary too when it stands for that finding alone, so a
 * time-zone extension is not counted twice.
 */
export function tamperingFindings(tampering: readonly string[] = []): string[] {
  const others = tampering.filter((t) => t !== 'timezone_spoofing');
  if (others.length < tampering.length && others.every((t) => t === TAMPERING_SUMMARY)) return [];
  return others;
}

/** The user agent claims one platform, the client hints or the SDK's own facts another. */
function userAgentInconsistent(sdk: SdkFacts): boolean {
  const hints = sdk.client_hints;
  const os = parseUserAgent(sdk.user_agent).device.os ?? '';
  if (hints?.platform) {
    const platform = hints.platform.toLowerCase();
    const family = /windows/i.test(os)
      ? 'windows'
      : /mac os|macos/i.test(os)
        ? 'macos'
        : /android/i.test(os)
          ? 'android'
          : /linux|ubuntu|debian|fedora/i.test(os)
            ? 'linux'
            : /chrom/i.test(os)
              ? 'chrome os'
              : undefined;
    if (family && platform !== family && !(family === 'linux' && platform === 'chrome os')) return true;
  }
  if (
    sdk.source !== 'web' &&
    sdk.source !== undefined &&
    sdk.user_agent &&
    /Windows NT|Macintosh|X11/.test(sdk.user_agent)
  )
    return true;
  return false;
}

/**
 * Which bot term a device_risk condition feeds besides (docs/scoring.md, "Bot score"):
 * `automation`, a program drives the browser; `tampering`, the facts the session reports are
 * not the browser's own (altered in the page, or posted by something other than the browser they
 * describe). None for what a person's own device can show: an emulator, a rooted phone, a failed
 * attestation, a desktop-site user agent, an automation hint of no known driver.
 */
export type BotEvidenceKind = 'automation' | 'tampering';

export interface DeviceCondition {
  name: string;
  weight: number;
  present: boolean;
  bot?: BotEvidenceKind;
}

/** device_risk's conditions, each with its weight and the bot term it feeds: the one home of both. */
export function deviceRiskConditions(sdk: SdkFacts): DeviceCondition[] {
  const signals = sdk.automation?.signals ?? [];
  const mobile = sdk.mobile;
  const received = receivedConditions(sdk);
  const input = inputConditions(sdk.input);
  return [
    { name: 'webdriver', weight: 1, present: sdk.automation?.webdriver === true, bot: 'automation' },
    ...signals.map((s): DeviceCondition => {
      const driven = AUTOMATION_CONDITION.test(s);
      return { name: s, weight: driven ? 0.9 : 0.5, present: true, ...(driven ? { bot: 'automation' } : {}) };
    }),
    // A program typed or clicked, whatever the browser's own facts say (input.ts).
    ...(Object.keys(INPUT_WEIGHTS) as InputCondition[]).map((name): DeviceCondition => ({
      name,
      weight: INPUT_WEIGHTS[name],
      present: input[name],
      bot: 'automation',
    })),
    ...tamperingFindings(sdk.tampering).map((t): DeviceCondition => ({
      name: t,
      weight: 0.8,
      present: true,
      bot: 'tampering',
    })),
    { name: 'emulator', weight: 0.7, present: mobile?.emulator === true },
    { name: 'rooted_device', weight: 0.6, present: mobile?.rooted === true },
    { name: 'oem_app_integrity_failed', weight: 0.8, present: mobile?.oem_app_integrity === 'failed' },
    { name: 'oem_device_integrity_failed', weight: 0.8, present: mobile?.oem_device_integrity === 'failed' },
    { name: 'user_agent_platform_mismatch', weight: 0.6, present: userAgentInconsistent(sdk) },
    // Every one of them says the post was not made by the browser it describes (received.ts).
    ...(Object.keys(RECEIVED_WEIGHTS) as ReceivedCondition[]).map((name): DeviceCondition => ({
      name,
      weight: RECEIVED_WEIGHTS[name],
      present: received[name],
      bot: 'tampering',
    })),
  ];
}

export function deviceRisk(ctx: SignalContext): Finding {
  return findingOf(deviceRiskConditions(ctx.sdk), 'device');
}

/**
 * What the bot score weighs of device_risk's conditions: whether automation was found, and the
 * tampering's strength: its conditions present, combined as device_risk combines them (their
 * noisy-OR, to 3 decimals), 0 when none.
 */
export function deviceBotEvidence(sdk: SdkFacts): { automation: boolean; tampering: number } {
  const present = deviceRiskConditions(sdk).filter((c) => c.present);
  return {
    automation: present.some((c) => c.bot === 'automation'),
    tampering: round3(noisyOr(present.filter((c) => c.bot === 'tampering').map((c) => c.weight))),
  };
}

function timezoneMismatch(ctx: SignalContext): boolean {
  const browserZone = ctx.session.browser.timezone;
  const country = ctx.session.location.country_code;
  if (!browserZone || !country) return false;
  const gap = zoneGapMinutes(browserZone, ctx.session.location.timezone, ctx.now);
  return gap !== undefined && gap >= MISMATCH_TIMEZONE_GAP_MIN && !zonesOfCountry(country).has(browserZone);
}

/** None of the browser's languages is a language of the IP's country, nor English (spoken everywhere online). */
function languagesImplausible(ctx: SignalContext): boolean {
  const country = ctx.session.location.country_code as keyof typeof countries | undefined;
  const languages = ctx.sdk.languages ?? ctx.sdk.mobile?.languages ?? [];
  if (!country || !countries[country] || languages.length === 0) return false;
  const spoken = new Set<string>([...countries[country].languages, 'en']);
  // split returns at least one part: the primary language subtag.
  return !languages.some((tag) => spoken.has(tag.split('-')[0]!.toLowerCase()));
}

export function deviceNetworkMismatch(ctx: SignalContext): Finding {
  const mobileSdk = ctx.sdk.source === 'ios' || ctx.sdk.source === 'android';
  return findingOf(
    [
      { name: 'timezone_mismatch', weight: 0.7, present: timezoneMismatch(ctx) },
      { name: 'language_mismatch', weight: 0.2, present: languagesImplausible(ctx) },
      {
        name: 'mobile_device_on_hosting_network',
        weight: 0.8,
        present: mobileSdk && ctx.session.network.connection_type === 'hosting',
      },
    ],
    'network',
  );
}

function geolocationFarFromIp(ctx: SignalContext): boolean {
  const g = ctx.sdk.geolocation;
  const { latitude, longitude } = ctx.session.location;
  if (!g || latitude === undefined || longitude === undefined) return false;
  const km = distanceKm(g.latitude, g.longitude, latitude, longitude);
  return km > GEOLOCATION_SPOOF_KM + ipLocationAccuracyKm(ctx.session.location) + (g.accuracy_m ?? 0) / 1000;
}

export function locationSpoofing(ctx: SignalContext): Finding {
  return findingOf(
    [
      { name: 'geolocation_far_from_ip', weight: 0.8, present: geolocationFarFromIp(ctx) },
      { name: 'timezone_spoofing', weight: 0.7, present: (ctx.sdk.tampering ?? []).includes('timezone_spoofing') },
    ],
    'device',
  );
}
