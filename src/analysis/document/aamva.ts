/**
 * The AAMVA DL/ID card design standard's barcode data (the PDF417 on the back of North
 * American driving licences and ID cards): the header, the subfile directory and the data
 * elements, read into `DocumentFields`, with the integrity checks the format allows.
 *
 * Layout (AAMVA DL/ID card design standard, annex D):
 *   `@` LF RS CR, the file type `ANSI ` (`AAMVA` in some early cards), the issuer's IIN (6 digits),
 *   the AAMVA version (2), the jurisdiction version (2; absent in version 01), the number of
 *   entries (2), then one 10-character directory entry per subfile: its type (`DL`, `ID`, or a
 *   jurisdiction's `Z?`), its offset (4) and its length (4), counted in bytes from the start.
 *   Each subfile starts with its type, holds elements `XXXvalue` separated by LF, and ends with CR.
 * Dates are MMDDCCYY on US cards and CCYYMMDD on Canadian ones (and on every version-01 card).
 */
import type { DocumentFields, IsoDate } from '../../domain/verification/analysis';

export interface AamvaCheck {
  name: string;
  passed: boolean;
}

export interface AamvaSubfile {
  type: string;
  offset: number;
  length: number;
}

export interface AamvaResult {
  /** The fields; null when the data is not AAMVA at all (no header, no DL/ID subfile). */
  fields: DocumentFields | null;
  /** The checks that could be made, each passed or failed. */
  checks: AamvaCheck[];
  /** The header, when it could be read. */
  header: {
    fileType: string;
    iin: string;
    version: number;
    jurisdictionVersion: number | null;
    entries: number;
  } | null;
  subfiles: AamvaSubfile[];
  /** Every data element of the DL/ID subfile, by its three-letter id. */
  elements: Record<string, string>;
}

const COMPLIANCE = '@\n\x1e\r';
const HEADER = /^@\n\x1e\r(ANSI |AAMVA)(\d{6})(\d{2})/;

/**
 * Canadian issuers' IINs, from AAMVA's list of jurisdictions. Used only where a card names no
 * country (DCG, mandatory from version 02 on), to choose the date order and the country code.
 */
const CANADIAN_IINS = new Set([
  '604432', // Alberta
  '636028', // British Columbia
  '636048', // Manitoba
  '636017', // New Brunswick
  '636016', // Newfoundland and Labrador
  '636013', // Nova Scotia
  '604430', // Northwest Territories
  '604433', // Nunavut
  '636012', // Ontario
  '604426', // Prince Edward Island
  '604428', // Quebec
  '636044', // Saskatchewan
  '604429', // Yukon
]);

const COUNTRIES: Record<string, string> = { USA: 'US', CAN: 'CA', MEX: 'MX' };

/** `YYYY-MM-DD` when y/m/d is a real calendar date, else null. */
export function isoDate(y: number, m: number, d: number): IsoDate {
  if (!Number.isInteger(y) || !Number.isInteger(m) || !Number.isInteger(d) || y < 1800 || y > 2200) return null;
  const probe = new Date(Date.UTC(y, m - 1, d));
  if (probe.getUTCFullYear() !== y || probe.getUTCMonth() !== m - 1 || probe.getUTCDate() !== d) return null;
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

export type DateOrder = 'MMDDCCYY' | 'CCYYMMDD';

/** An AAMVA date in the given order; null when absent, not 8 digits or not a real date. */
export function aamvaDate(value: string | undefined, order: DateOrder): IsoDate {
  const v = value?.trim();
  if (!v || !/^\d{8}$/.test(v)) return null;
  const n = (a: number, b: number) => Number(v.slice(a, b));
  return order === 'MMDDCCYY' ? isoDate(n(4, 8), n(0, 2), n(2, 4)) : isoDate(n(0, 4), n(4, 6), n(6, 8));
}

/**
 * The date order of a card: version 01 cards use CCYYMMDD everywhere; later versions use
 * MMDDCCYY in the US and CCYYMMDD in Canada, so the country (DCG) decides, else the issuer's IIN.
 */
export function dateOrder(version: number | null, country: string | undefined, iin: string | undefined): DateOrder {
  if (version === 1) return 'CCYYMMDD';
  if (country === 'CAN') return 'CCYYMMDD';
  if (country === 'USA') return 'MMDDCCYY';
  return iin && CANADIAN_IINS.has(iin) ? 'CCYYMMDD' : 'MMDDCCYY';
}

/** A postal code as printed: US ZIP+4 as 12345-6789 (12345 when the +4 is zeros); others trimmed. */
function postalCode(value: string | undefined, country: string | undefined): string {
  const v = (value ?? '').trim();
  if (country !== 'CAN' && /^\d{9}$/.test(v))
    return v.endsWith('0000') ? v.slice(0, 5) : `${v.slice(0, 5)}-${v.slice(5)}`;
  if (country !== 'CAN' && /^\d{5}$/.test(v)) return v;
  return v.replace(/\s+/g, ' ');
}

/** Names are printed in capitals on cards; kept as read, trimmed. Truncation markers are dropped. */
function name(value: string | undefined): string {
  return (value ?? '').trim();
}

/** The elements of one subfile: `XXXvalue` lines after the two-letter type, up to the CR. */
function parseElements(body: string): Record<string, string> {
  const elements: Record<string, string> = {};
  for (const raw of body.split(/[\n\r]/)) {
    const line = raw.replace(/^\x1e/, '');
    const m = /^([A-Z]{3})(.*)$/.exec(line);
    if (!m) continue;
    // Both groups are mandatory, so a match has them.
    const key = m[1]!;
    if (!(key in elements)) elements[key] = m[2]!;
  }
  return elements;
}

/** The header and the subfile directory, as far as they can be read. */
interface Directory {
  /** The header's match (HEADER), null when there is none. */
  match: RegExpExecArray | null;
  header: AamvaResult['header'];
  subfiles: AamvaSubfile[];
  /** Every entry the header announces is there (at least one). */
  valid: boolean;
}

function readDirectory(data: string): Directory {
  const match = HEADER.exec(data);
  const directory: Directory = { match, header: null, subfiles: [], valid: false };
  if (!match) return directory;
  const version = Number(match[3]);
  // Version 01 has no jurisdiction version: the entry count follows the version directly.
  const rest = data.slice(match[0].length);
  const hasJurisdiction = version >= 2;
  const counts = hasJurisdiction ? /^(\d{2})(\d{2})/.exec(rest) : /^(\d{2})/.exec(rest);
  if (!counts) return directory;
  const entries = Number(hasJurisdiction ? counts[2] : counts[1]);
  directory.header = {
    // HEADER's three groups are mandatory, so a match has them.
    fileType: match[1]!,
    iin: match[2]!,
    version,
    jurisdictionVersion: hasJurisdiction ? Number(counts[1]) : null,
    entries,
  };
  let at = match[0].length + counts[0].length;
  directory.valid = entries >= 1;
  for (let i = 0; i < entries; i++) {
    const entry = /^([A-Z]{2})(\d{4})(\d{4})/.exec(data.slice(at, at + 10));
    if (!entry) {
      directory.valid = false;
      break;
    }
    directory.subfiles.push({ type: entry[1]!, offset: Number(entry[2]), length: Number(entry[3]) });
    at += 10;
  }
  return directory;
}

/**
 * The DL/ID subfile's body and type: where the directory says, when that holds; else found by
 * its type. Adds the directory's checks to `checks`.
 */
function mainSubfile(
  data: string,
  { match, subfiles }: Directory,
  checks: AamvaCheck[],
): { body: string; type: string } | undefined {
  const main = subfiles.find((s) => s.type === 'DL' || s.type === 'ID');
  if (main) {
    const at = data.slice(main.offset, main.offset + 2);
    const offsetsHold = subfiles.every(
      (s) => data.slice(s.offset, s.offset + 2) === s.type && s.offset + s.length <= data.length,
    );
    const lengthsHold = subfiles.every((s) => {
      const end = data.slice(s.offset, s.offset + s.length);
      return end.endsWith('\r') || s.offset + s.length === data.length;
    });
    checks.push({ name: 'aamva_subfile_offsets', passed: offsetsHold });
    checks.push({ name: 'aamva_subfile_lengths', passed: offsetsHold && lengthsHold });
    if (at === main.type) return { body: data.slice(main.offset + 2, main.offset + main.length), type: main.type };
  }
  // Damaged directory, or no header at all: look for the subfile by its type and first element.
  const found = /(?:^|[\n\r\x1e]|\d)(DL|ID)(?=D[A-Z]{2})/.exec(match ? data.slice(match[0].length) : data);
  if (found && (match || data.startsWith(COMPLIANCE))) {
    const from = (match ? match[0].length : 0) + found.index + found[0].length;
    const end = data.indexOf('\r', from);
    // The regex's group is mandatory, so a match has it.
    return { body: data.slice(from, end === -1 ? undefined : end), type: found[1]! };
  }
  return undefined;
}

/** The holder's names: version 01's DAA "LAST,FIRST,MIDDLE" (or DAB/DAC); later: DCS, DAC (DCT in version 02). */
function names(e: Record<string, string>): { firstName: string; lastName: string } {
  let lastName = name(e.DCS ?? e.DAB);
  let firstName = name(e.DAC ?? e.DCT);
  if (!lastName && e.DAA) {
    const parts = e.DAA.split(/[,$]/).map((p) => p.trim());
    lastName = parts[0] ?? '';
    firstName ||= parts[1] ?? '';
  }
  if (e.DCT && !e.DAC) firstName = name(e.DCT.split(/[,$]/)[0]);
  return { firstName, lastName };
}

/** The DL/ID subfile's elements as DocumentFields. */
function fieldsOf(
  e: Record<string, string>,
  header: AamvaResult['header'],
  subfileType: string,
  order: DateOrder,
): DocumentFields {
  const country = e.DCG?.trim() || undefined;
  return {
    ...names(e),
    dateOfBirth: aamvaDate(e.DBB, order),
    dateOfExpiration: aamvaDate(e.DBA, order),
    dateOfIssue: aamvaDate(e.DBD, order),
    idNumber: (e.DAQ ?? '').trim(),
    idNumber2: e.DCF?.trim() || null,
    address: {
      street: [e.DAG, e.DAH]
        .map((s) => s?.trim())
        .filter(Boolean)
        .join(', '),
      city: (e.DAI ?? '').trim(),
      state: (e.DAJ ?? '').trim(),
      postalCode: postalCode(e.DAK, country),
      country: country ? (COUNTRIES[country] ?? country) : '',
    },
    countryCode: country ? (COUNTRIES[country] ?? null) : header && CANADIAN_IINS.has(header.iin) ? 'CA' : null,
    state: (e.DAJ ?? '').trim(),
    templateType: subfileType === 'DL' ? 'driver_license' : 'state_id',
  };
}

/** The checks of the elements: the mandatory ones present, the dates valid and in order. */
function elementChecks(e: Record<string, string>, fields: DocumentFields, order: DateOrder): AamvaCheck[] {
  const checks: AamvaCheck[] = [];
  const { lastName, firstName } = fields;
  checks.push({
    name: 'aamva_mandatory_elements',
    passed: ['DAQ', 'DBB', 'DBA'].every((k) => (e[k] ?? '').trim() !== '') && (lastName !== '' || firstName !== ''),
  });
  const datesRead = (['DBB', 'DBA', 'DBD'] as const).filter((k) => e[k] !== undefined && e[k].trim() !== '');
  const datesValid = datesRead.every((k) => aamvaDate(e[k], order) !== null);
  checks.push({ name: 'aamva_dates_valid', passed: datesValid });
  const { dateOfBirth: birth, dateOfIssue: issue, dateOfExpiration: expiry } = fields;
  if ((birth && issue) || (issue && expiry) || (birth && expiry)) {
    const ok =
      (!birth || !issue || birth < issue) &&
      (!issue || !expiry || issue < expiry) &&
      (!birth || !expiry || birth < expiry);
    checks.push({ name: 'dates_consistent', passed: ok });
  }
  return checks;
}

/**
 * Reads AAMVA barcode data. Never throws: data that is not AAMVA gives `fields: null` with the
 * failed header check; damaged data gives what could still be read, with the checks that failed.
 */
export function parseAamva(data: string): AamvaResult {
  const directory = readDirectory(data);
  const { header, subfiles } = directory;
  const checks: AamvaCheck[] = [{ name: 'aamva_header', passed: directory.match !== null }];
  if (directory.match)
    checks.push({
      name: 'aamva_subfile_directory',
      passed: directory.valid && subfiles.some((s) => s.type === 'DL' || s.type === 'ID'),
    });
  const subfile = mainSubfile(data, directory, checks);
  if (subfile === undefined) return { fields: null, checks, header, subfiles, elements: {} };

  const e = parseElements(subfile.body);
  const order = dateOrder(header?.version ?? null, e.DCG?.trim() || undefined, header?.iin);
  const fields = fieldsOf(e, header, subfile.type, order);
  return { fields, checks: [...checks, ...elementChecks(e, fields, order)], header, subfiles, elements: e };
}
