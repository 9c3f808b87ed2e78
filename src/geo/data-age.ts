/**
 * How old the network data is (GET /healthz `data`, and the warning at start): the geolocation
 * and ASN databases by their build dates, the IP lists by their last sync; and the IP data
 * files' digests, with the nodes that loaded different ones (data-files.ts).
 */
import type { DataFileHealth, GeoDataHealth, IpListHealth, NetworkDataHealth } from '../api-types';
import { DAY_MS } from '../domain/numbers';
import type { IpListStatus } from './ip-lists';

/** A database the IP data loaded, and its build time when it says. */
export interface GeoDataAge {
  database: GeoDataHealth['database'];
  source: GeoDataHealth['source'];
  builtAt?: Date;
}

/** What GET /healthz reports of the network data, as of now. */
export interface NetworkDataStatus {
  health(now: Date): NetworkDataHealth;
}

const ageDays = (since: Date | undefined, now: Date) =>
  since ? Math.max(0, Math.round(((now.getTime() - since.getTime()) / DAY_MS) * 10) / 10) : null;

/** The report from the IP data's databases and the IP lists' status; a synced list older than `staleDays` is stale. */
export function networkDataHealth(
  geo: readonly GeoDataAge[],
  lists: readonly IpListStatus[],
  now: Date,
  staleDays: number,
  files: readonly DataFileHealth[] = [],
): NetworkDataHealth {
  return {
    files: [...files],
    geo: geo.map((g) => ({
      database: g.database,
      source: g.source,
      built_at: g.builtAt?.toISOString() ?? null,
      age_days: ageDays(g.builtAt, now),
    })),
    ip_lists: lists.map((l): IpListHealth => {
      const age = ageDays(l.synced?.syncedAt, now);
      return {
        list: l.list,
        entries: l.entries.shipped + l.entries.operator + l.entries.synced,
        synced_at: l.synced?.syncedAt.toISOString() ?? null,
        age_days: age,
        stale: age !== null && age > staleDays,
      };
    }),
  };
}

export function makeNetworkDataStatus(
  sources: {
    geo: () => readonly GeoDataAge[];
    lists: () => readonly IpListStatus[];
    files?: () => readonly DataFileHealth[];
  },
  staleDays: number,
): NetworkDataStatus {
  return {
    health: (now) => networkDataHealth(sources.geo(), sources.lists(), now, staleDays, sources.files?.() ?? []),
  };
}

/** The lines to log at start: each stale list, and the lists with a source that were never synced. */
export function staleDataWarnings(
  health: NetworkDataHealth,
  syncable: readonly string[],
  staleDays: number,
): { msg: string; fields: Record<string, unknown> }[] {
  const warnings: { msg: string; fields: Record<string, unknown> }[] = [];
  for (const l of health.ip_lists.filter((x) => x.stale)) {
    warnings.push({
      msg: `IP list ${l.list} is stale (synced ${l.age_days} days ago, over IPLIST_STALE_DAYS=${staleDays}); run trustgate iplist sync`,
      fields: { list: l.list, synced_at: l.synced_at, age_days: l.age_days },
    });
  }
  const never = health.ip_lists.filter((l) => l.synced_at === null && syncable.includes(l.list)).map((l) => l.list);
  if (never.length > 0) {
    warnings.push({
      msg: `IP lists never synced: ${never.join(', ')}; Tor, VPN and relay detection needs them: run trustgate iplist sync`,
      fields: { lists: never },
    });
  }
  return warnings;
}
