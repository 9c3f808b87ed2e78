/** Geometry and time-zone arithmetic for the location signals. Pure; time comes in as `at`. */
import ct from 'countries-and-timezones';
import { remembered } from '../memo';
import { MINUTE_MS } from '../numbers';

const EARTH_RADIUS_KM = 6371.0088;

/** Great-circle distance (haversine), in km. */
export function distanceKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const rad = Math.PI / 180;
  const dLat = (lat2 - lat1) * rad;
  const dLon = (lon2 - lon1) * rad;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** How far off an IP location may be, in km: city-level IP data is good to some tens of km, country-level (no city) to hundreds. */
export function ipLocationAccuracyKm(location: { city?: string }): number {
  return location.city ? 50 : 500;
}

/**
 * One formatter per zone name (building one costs far more than formatting with it). Only names
 * that construct are kept (an unknown zone throws), and at most 2,000 (zone names are matched
 * without regard to case, so a client could send many spellings of one zone).
 */
const offsetFormat = remembered(
  2000,
  (zone) => new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' }),
);

/**
 * Offsets already computed, by zone and minute: zones change their offset on a whole minute
 * (every transition in the time-zone database since 1980; some, such as Gaza's, at 00:01), so one
 * answer holds for the minute. Formatting a date in a zone is costly, a lookup next to nothing, and
 * a busy server evaluates many sessions of one zone in a minute.
 */
const offsetInMinute = remembered(20_000, (key) => {
  const space = key.indexOf(' ');
  return formattedOffset(key.slice(space + 1), new Date(Number(key.slice(0, space)) * MINUTE_MS));
});

/** A zone's offset from UTC at `at`, in minutes east (DST included); undefined for an unknown zone. */
export function zoneOffsetMinutes(zone: string, at: Date): number | undefined {
  return offsetInMinute(`${Math.floor(at.getTime() / MINUTE_MS)} ${zone}`);
}

function formattedOffset(zone: string, at: Date): number | undefined {
  try {
    const name = offsetFormat(zone)
      .formatToParts(at)
      .find((p) => p.type === 'timeZoneName')?.value;
    if (!name) return undefined;
    if (name === 'GMT') return 0;
    const m = /^GMT([+-])(\d{2}):(\d{2})$/.exec(name);
    return m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * How far apart two zones' clocks are at `at`, in minutes (DST included); undefined when either
 * is missing or unknown. The browser's zone against the address's is the one comparison several
 * rules make.
 */
export function zoneGapMinutes(a: string | undefined, b: string | undefined, at: Date): number | undefined {
  if (!a || !b) return undefined;
  const offA = zoneOffsetMinutes(a, at);
  const offB = zoneOffsetMinutes(b, at);
  return offA === undefined || offB === undefined ? undefined : Math.abs(offA - offB);
}

/** The IANA zones in use in a country (countries-and-timezones, MIT), aliases included. */
export function zonesOfCountry(country: string): ReadonlySet<string> {
  const found = ct.getCountry(country as Parameters<typeof ct.getCountry>[0], { deprecated: true });
  return new Set(found?.timezones ?? []);
}

/**
 * The countries that keep a time zone's clock (countries-and-timezones, MIT), the zone's own
 * first (Europe/London: GB, GG, IM, JE; Europe/Berlin: DE, DK, …; an alias such as
 * Europe/Stockholm: SE); none for an unknown zone or one of no country (UTC).
 */
export function countriesOfZone(zone: string): readonly string[] {
  return ct.getTimezone(zone)?.countries ?? [];
}
