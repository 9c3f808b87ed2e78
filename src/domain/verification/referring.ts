/**
 * The capture device and network against the referring SDK session (the session that led the
 * user to the verification): has the user moved impossibly fast, changed network, browser or
 * time zone? Scores 0..1 for Face Match; ID Check reports each as a boolean (score ≥ 0.5).
 * Without a referring session every comparison is 0.
 */
import type { FaceMatchReferringSessionSignals, IdCheckReferringSessionSignals, Session } from '../../api-types';
import { ipBlock } from '../enrichment/ip';
import { HOUR_MS } from '../numbers';
import { distanceKm, ipLocationAccuracyKm, zoneGapMinutes } from '../signals/geo';
import { IMPOSSIBLE_TRAVEL_KMH, TRAVEL_MIN_DISTANCE_KM } from '../signals/history';
import { isAnonymised } from '../signals/network';

export type ReferringComparison = FaceMatchReferringSessionSignals;

export const NO_REFERRING_SESSION: ReferringComparison = {
  impossible_travel: 0,
  ip_mismatch: 0,
  user_agent_mismatch: 0,
  device_timezone_mismatch: 0,
  ip_timezone_mismatch: 0,
};

/** Scores of an IP change: same address 0, same /24 (IPv6 /64) 0.3, same provider 0.6, otherwise 1. */
export const IP_MISMATCH = { sameBlock: 0.3, sameProvider: 0.6, other: 1 };
/**
 * Scores of a user-agent change: same browser and OS in another version 0.3, another browser on
 * the same OS 0.6, another OS or device 1.
 */
export const USER_AGENT_MISMATCH = { version: 0.3, browser: 0.6, platform: 1 };

function travel(capture: Session, referring: Session): number {
  const a = referring.location;
  const b = capture.location;
  if (isAnonymised(capture) || isAnonymised(referring)) return 0;
  if (a.latitude === undefined || a.longitude === undefined || b.latitude === undefined || b.longitude === undefined)
    return 0;
  const km = distanceKm(a.latitude, a.longitude, b.latitude, b.longitude);
  if (km <= Math.max(TRAVEL_MIN_DISTANCE_KM, ipLocationAccuracyKm(a), ipLocationAccuracyKm(b))) return 0;
  const hours = Math.max(
    Math.abs(new Date(capture.start_time).getTime() - new Date(referring.start_time).getTime()) / HOUR_MS,
    1 / 60,
  );
  return km / hours > IMPOSSIBLE_TRAVEL_KMH ? 1 : 0;
}

function ipMismatch(capture: Session, referring: Session): number {
  const a = referring.network;
  const b = capture.network;
  if (!a.ip_address || !b.ip_address || a.ip_address === b.ip_address) return 0;
  const block = ipBlock(a.ip_address);
  if (block && block === ipBlock(b.ip_address)) return IP_MISMATCH.sameBlock;
  if (a.service_provider && a.service_provider === b.service_provider) return IP_MISMATCH.sameProvider;
  return IP_MISMATCH.other;
}

function userAgentMismatch(capture: Session, referring: Session): number {
  if (
    !capture.browser.user_agent ||
    !referring.browser.user_agent ||
    capture.browser.user_agent === referring.browser.user_agent
  )
    return 0;
  const a = referring.device;
  const b = capture.device;
  if (a.os !== b.os || a.category !== b.category || a.type !== b.type) return USER_AGENT_MISMATCH.platform;
  if (referring.browser.type !== capture.browser.type) return USER_AGENT_MISMATCH.browser;
  return USER_AGENT_MISMATCH.version;
}

/** Two zones differ when their offsets at `at` differ (aliases and same-offset neighbours are equal). */
function zonesDiffer(a: string | undefined, b: string | undefined, at: Date): number {
  if (a === b) return 0;
  const gap = zoneGapMinutes(a, b, at);
  return gap !== undefined && gap > 0 ? 1 : 0;
}

export function compareWithReferring(capture: Session, referring: Session | undefined): ReferringComparison {
  if (!referring) return NO_REFERRING_SESSION;
  const at = new Date(capture.start_time);
  return {
    impossible_travel: travel(capture, referring),
    ip_mismatch: ipMismatch(capture, referring),
    user_agent_mismatch: userAgentMismatch(capture, referring),
    device_timezone_mismatch: zonesDiffer(capture.browser.timezone, referring.browser.timezone, at),
    ip_timezone_mismatch: zonesDiffer(capture.location.timezone, referring.location.timezone, at),
  };
}

/** ID Check's form: each comparison as a boolean (score ≥ 0.5). */
export function referringBooleans(c: ReferringComparison): IdCheckReferringSessionSignals {
  return {
    impossible_travel: c.impossible_travel >= 0.5,
    ip_mismatch: c.ip_mismatch >= 0.5,
    user_agent_mismatch: c.user_agent_mismatch >= 0.5,
  };
}
