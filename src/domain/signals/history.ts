/** Signals from this service's history: recent fraud on the address, the address's reputation, impossible travel. */
import { HOUR_MS, round3 } from '../numbers';
import { findingOf, type Finding, type SignalContext, type SignalHistory } from './context';
import { distanceKm, ipLocationAccuracyKm } from './geo';
import { onRelay } from './network';

/** Reference rule: farther than max(50 km, the locations' accuracy) at more than 900 km/h. */
export const IMPOSSIBLE_TRAVEL_KMH = 900;
export const TRAVEL_MIN_DISTANCE_KM = 50;
/** Fast but possible travel (600..900 km/h) scores up to this, below the signal's threshold. */
export const FAST_TRAVEL_KMH = 600;
export const FAST_TRAVEL_MAX = 0.4;
/** An address seen on more accounts than this in 30 days is crowded (weak evidence alone). */
export const CROWDED_IP_ACCOUNTS = 10;
/** ip_fake_sessions: a Fake session on the address weighs 0.6, each more 0.1, certain from five. */
const fakeSessionsWeight = (n: number) => Math.min(1, 0.5 + 0.1 * n);
/** ip_blocked_accounts: a block-listed account seen there weighs 0.7, each more 0.1, certain from four. */
const blockedAccountsWeight = (n: number) => Math.min(1, 0.6 + 0.1 * n);
/** ip_many_accounts: 0.02 an account, at most 0.6 (thirty accounts). */
const manyAccountsWeight = (n: number) => Math.min(0.6, 0.02 * n);

/**
 * How far each count of an address's history can be told apart: ip_used_by_fraud asks whether
 * there is any, subnet_used_by_fraud whether there are two, and the weights above stop growing
 * at five Fake sessions, four block-listed accounts and thirty accounts. The counts read no
 * further than this (storage/evaluation/sql.ts countsStatement), so that a busy address (a
 * carrier's NAT, an office) costs an evaluation what a quiet one does.
 */
export const COUNTED_UP_TO = {
  fraudOnIp: 1,
  fraudOnBlock: 2,
  ipFakeSessions: 5,
  ipBlockedAccounts: 4,
  ipDistinctAccounts: 30,
} as const satisfies Record<Exclude<keyof SignalHistory, 'previous'>, number>;

export function recentFraudIp(ctx: SignalContext): Finding {
  const h = ctx.history;
  return findingOf(
    [
      { name: 'ip_used_by_fraud', weight: 1, present: h.fraudOnIp > 0 },
      { name: 'fraud_ip_list', weight: 1, present: ctx.ipLists.has('fraud') },
      // The neighbourhood is weaker evidence: one Fake session there says less than several.
      { name: 'subnet_used_by_fraud', weight: h.fraudOnBlock >= 2 ? 0.5 : 0.3, present: h.fraudOnBlock > 0 },
    ],
    'network',
  );
}

export function ipReputation(ctx: SignalContext): Finding {
  const h = ctx.history;
  return findingOf(
    [
      { name: 'ip_fake_sessions', weight: fakeSessionsWeight(h.ipFakeSessions), present: h.ipFakeSessions > 0 },
      {
        name: 'ip_blocked_accounts',
        weight: blockedAccountsWeight(h.ipBlockedAccounts),
        present: h.ipBlockedAccounts > 0,
      },
      {
        name: 'ip_many_accounts',
        weight: manyAccountsWeight(h.ipDistinctAccounts),
        present: h.ipDistinctAccounts > CROWDED_IP_ACCOUNTS,
      },
    ],
    'network',
  );
}

function anonymised(ctx: SignalContext): boolean {
  return ctx.ipLists.has('tor') || ctx.ipLists.has('vpn') || ctx.ipLists.has('proxy') || onRelay(ctx);
}

/** The travel speed (km/h) from the previous session, when the rule applies; undefined when it cannot. */
export function travelSpeed(ctx: SignalContext): { km: number; kmh: number } | undefined {
  const prev = ctx.history.previous;
  const { latitude, longitude } = ctx.session.location;
  if (!prev || prev.anonymised || anonymised(ctx) || latitude === undefined || longitude === undefined)
    return undefined;
  const km = distanceKm(prev.latitude, prev.longitude, latitude, longitude);
  const accuracyKm = Math.max(prev.accuracyKm, ipLocationAccuracyKm(ctx.session.location));
  if (km <= Math.max(TRAVEL_MIN_DISTANCE_KM, accuracyKm)) return undefined;
  const hours = Math.max((ctx.now.getTime() - prev.time.getTime()) / HOUR_MS, 1 / 60);
  return { km, kmh: km / hours };
}

export function impossibleTravel(ctx: SignalContext): Finding {
  const travel = travelSpeed(ctx);
  if (!travel) return { score: 0, network: [] };
  // Above 900 km/h nobody travels (reference rule): certain. From 600 km/h (a fast airliner)
  // up to 900 the score rises to 0.4: worth weighing, never raised.
  if (travel.kmh > IMPOSSIBLE_TRAVEL_KMH) return { score: 1, network: ['impossible_travel'] };
  return {
    score: round3(
      Math.max(0, (travel.kmh - FAST_TRAVEL_KMH) / (IMPOSSIBLE_TRAVEL_KMH - FAST_TRAVEL_KMH)) * FAST_TRAVEL_MAX,
    ),
    network: [],
  };
}
