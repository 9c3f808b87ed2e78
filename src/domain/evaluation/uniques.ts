/**
 * An account's distinct devices and networks within the day and the week before its `last_seen`
 * (AccountDetails `unique_devices`, `unique_networks`), from the kept per-account values
 * (`account_uniques`, migration 0035: each value with its newest session's start) and the session
 * being evaluated. Pure.
 */
import type { AccountDetails, WindowCounts } from '../../api-types';
import { DAY_MS } from '../numbers';
import type { PastSession, StoredUniques } from './facts';

/** The windows, in days before `last_seen`. */
const WINDOWS = { '1_day': 1, '7_day': 7 } as const satisfies Record<keyof WindowCounts, number>;

/** At most this many values are counted in a window (one index range, bounded). */
export const UNIQUES_COUNTED = 10_000;

/** A session's identifiers of its device (a missing or empty one is none). */
export interface DeviceIds {
  browserFingerprint?: string | null;
  mobileId?: string | null;
  deviceId?: string | null;
}

/**
 * The device a session ran on: the hardware fingerprint; a session without one (a native app's,
 * or a browser whose fingerprint failed) counts by its vendor id, else by its stored id. Two
 * profiles of one browser, or one browser before and after its storage was cleared, are one
 * device. Stored with each session (`sessions.device`), which `account_uniques` counts.
 */
export function deviceOf(s: DeviceIds): string | undefined {
  return s.browserFingerprint || s.mobileId || s.deviceId || undefined;
}

/** What is read of an account's kept values: where its windows start, and this session's device and network. */
export interface UniquesQuery {
  accountId: string;
  since: Record<keyof WindowCounts, Date>;
  device?: string;
  network?: string;
}

export const NO_UNIQUES: StoredUniques = {
  devices: { '1_day': 0, '7_day': 0 },
  networks: { '1_day': 0, '7_day': 0 },
};

/**
 * The windows of an account whose `last_seen` is `lastSeen` (once the evaluated session is
 * linked to it: `withSession`), and the evaluated session's device and network.
 */
export function uniquesQuery(
  accountId: string,
  lastSeen: Date | undefined,
  now: Date,
  current?: PastSession,
): UniquesQuery {
  const end = (lastSeen ?? now).getTime();
  const since = (days: number) => new Date(end - days * DAY_MS);
  const query: UniquesQuery = {
    accountId,
    since: { '1_day': since(WINDOWS['1_day']), '7_day': since(WINDOWS['7_day']) },
  };
  const device = current && deviceOf(current);
  if (device) query.device = device;
  if (current?.ipBlock) query.network = current.ipBlock;
  return query;
}

/** The details' counts: the kept values in each window, and this session's when it brings one the window lacks. */
export function uniquesWith(
  stored: StoredUniques,
  query: UniquesQuery,
  session?: PastSession,
): Pick<AccountDetails, 'unique_devices' | 'unique_networks'> {
  const count = (kept: WindowCounts, value: string | undefined, lastStart: Date | undefined): WindowCounts => {
    const out = { ...kept };
    for (const w of Object.keys(WINDOWS) as (keyof WindowCounts)[]) {
      const since = query.since[w].getTime();
      const brings =
        session !== undefined &&
        value !== undefined &&
        session.startTime.getTime() >= since &&
        !(lastStart !== undefined && lastStart.getTime() >= since);
      if (brings) out[w] = Math.min(out[w] + 1, UNIQUES_COUNTED);
    }
    return out;
  };
  return {
    unique_devices: count(stored.devices, query.device, stored.deviceLastStart),
    unique_networks: count(stored.networks, query.network, stored.networkLastStart),
  };
}
