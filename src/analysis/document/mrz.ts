/**
 * The machine-readable zone of passports and ID cards (ICAO 9303: TD1, TD2, TD3), read with
 * Tesseract (tesseract.js, Apache-2.0: Tesseract compiled to WebAssembly, run in a worker
 * thread) and the English LSTM model that `@tesseract.js-data/eng` ships (no OCR-B model is
 * published on npm), then parsed and its check digits verified by the `mrz` package (MIT).
 *
 * Where: the lower part of the document (the edges' rectangle, straightened) or, with no
 * document found, the lower part of the photo. Tesseract reads only `A-Z 0-9 <`; the parser
 * corrects the usual confusions (O/0, I/1, ...) where a field is known to be numeric or
 * alphabetic, and the check digits tell whether what was read holds together.
 */
import path from 'node:path';
import sharp from 'sharp';
import { getCountryDataList } from 'countries-list';
import type { DocumentFields, IsoDate } from '../../domain/verification/analysis';
import type { RgbImage } from '../image';
import { isoDate } from './aamva';

type Tesseract = typeof import('tesseract.js');
type Worker = Awaited<ReturnType<Tesseract['createWorker']>>;
type MrzParse = typeof import('mrz').parse;
type MrzResult = ReturnType<MrzParse>;

export interface MrzFindings {
  format: 'TD1' | 'TD2' | 'TD3';
  lines: string[];
  fields: DocumentFields;
  checks: { name: string; passed: boolean }[];
}

/** ICAO 3-letter codes to ISO 3166-1 alpha-2, with the MRZ's own codes for Germany and British nationals. */
const ALPHA3: Record<string, string> = {
  ...Object.fromEntries(getCountryDataList().map((c) => [c.iso3, c.iso2])),
  D: 'DE',
  GBD: 'GB',
  GBN: 'GB',
  GBO: 'GB',
  GBP: 'GB',
  GBS: 'GB',
};

const LENGTHS = { TD1: [30, 3], TD2: [36, 2], TD3: [44, 2] } as const;

/** YYMMDD: birth dates are in the past (the century that makes it so), expiry dates within 50 years on. */
export function mrzDate(value: string | null | undefined, kind: 'birth' | 'expiry', now: Date): IsoDate {
  if (!value || !/^\d{6}$/.test(value)) return null;
  const yy = Number(value.slice(0, 2));
  const m = Number(value.slice(2, 4));
  const d = Number(value.slice(4, 6));
  const thisYear = now.getUTCFullYear();
  const century = Math.floor(thisYear / 100) * 100;
  let year = century + yy;
  if (kind === 'birth' && year > thisYear) year -= 100;
  if (kind === 'expiry' && year < thisYear - 50) year += 100;
  return isoDate(year, m, d);
}

/** OCR text to candidate MRZ lines: spaces removed, look-alikes of `<` mapped to it, uppercase. */
export function mrzCandidates(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((l) =>
      l
        .toUpperCase()
        .replace(/[\s]/g, '')
        .replace(/[«‹{(\[]/g, '<')
        .replace(/[^A-Z0-9<]/g, ''),
    )
    .filter((l) => l.length >= 25);
}

/**
 * Fits a read line to the format's length: Tesseract miscounts long runs of fillers, so a line
 * ending in fillers may be up to 8 short (3 otherwise), or up to 3 long.
 */
function fit(line: string, length: number): string | null {
  const short = length - line.length;
  if (short > (line.endsWith('<') ? 8 : 3) || short < -3) return null;
  return line.length > length ? line.slice(0, length) : line + '<'.repeat(length - line.length);
}

/** The fewest valid check digits for a read to count as an MRZ (random text parses too, with every digit wrong). */
const MIN_VALID_CHECK_DIGITS = 2;

/**
 * Tries each format on consecutive candidate lines; the parse with the most valid check digits
 * wins. A read counts when its document code is one ICAO defines (P, I, A, C, V), every line
 * holds a filler `<`, and at least two check digits hold.
 */
export function findMrz(
  candidates: string[],
  parse: MrzParse,
): { format: MrzFindings['format']; lines: string[]; result: MrzResult } | null {
  let best: { format: MrzFindings['format']; lines: string[]; result: MrzResult; score: number } | null = null;
  for (const [format, [length, count]] of Object.entries(LENGTHS) as [
    MrzFindings['format'],
    readonly [number, number],
  ][]) {
    for (let i = 0; i + count <= candidates.length; i++) {
      const lines = candidates.slice(i, i + count).map((l) => fit(l, length));
      const code = lines[0]?.[0];
      if (lines.some((l) => l === null || !l.includes('<')) || code === undefined || !'PIACV'.includes(code)) continue;
      try {
        const result = parse(lines as string[], { autocorrect: true });
        const digits = result.details.filter((d) => /check digit/i.test(d.label));
        const score = digits.filter((d) => d.valid).length + (result.valid ? 10 : 0);
        const valid = digits.filter((d) => d.valid).length;
        if (result.format === format && valid >= MIN_VALID_CHECK_DIGITS && (!best || score > best.score))
          best = { format, lines: lines as string[], result, score };
      } catch {
        // Not this format.
      }
    }
  }
  return best && { format: best.format, lines: best.lines, result: best.result };
}

const TEMPLATE: Record<string, DocumentFields['templateType']> = {
  P: 'passport',
  I: 'national_id',
  A: 'national_id',
  C: 'national_id',
};

/** The parse in the engine's terms: fields (invalid ones empty or null) and one check per check digit. */
export function mrzFindings(
  found: { format: MrzFindings['format']; lines: string[]; result: MrzResult },
  now: Date,
): MrzFindings {
  const f = found.result.fields as Record<string, string | null | undefined>;
  const [first] = found.lines;
  if (first === undefined) throw new Error('mrzFindings: a found MRZ has at least one line');
  const issuing = (first.slice(2, 5) || '').replace(/</g, '');
  const code = (f.documentCode ?? first.slice(0, 2)).replace(/</g, '');
  const optional = [f.personalNumber, f.optional1, f.optional2].find((v) => v && v.replace(/</g, '') !== '') ?? null;
  const fields: DocumentFields = {
    firstName: f.firstName ?? '',
    lastName: f.lastName ?? '',
    dateOfBirth: mrzDate(f.birthDate, 'birth', now),
    dateOfExpiration: mrzDate(f.expirationDate, 'expiry', now),
    dateOfIssue: null,
    idNumber: found.result.documentNumber ?? f.documentNumber ?? '',
    idNumber2: optional,
    address: { street: '', city: '', state: '', postalCode: '', country: '' },
    countryCode: ALPHA3[issuing] ?? null,
    state: '',
    templateType: code.startsWith('P')
      ? 'passport'
      : code.endsWith('R')
        ? 'residence_permit'
        : (TEMPLATE[code.charAt(0)] ?? 'other'),
  };
  const checks = found.result.details
    .filter((d) => /check digit/i.test(d.label))
    .map((d) => ({
      name: `mrz_${(d.field ?? d.label)
        .replace(/([A-Z])/g, '_$1')
        .replace(/\s+/g, '_')
        .toLowerCase()}`,
      passed: d.valid,
    }));
  checks.push({ name: 'mrz_country_code', passed: fields.countryCode !== null });
  if (fields.dateOfBirth && fields.dateOfExpiration)
    checks.push({ name: 'dates_consistent', passed: fields.dateOfBirth < fields.dateOfExpiration });
  return { format: found.format, lines: found.lines, fields, checks };
}

export interface MrzReader {
  /** Reads an MRZ in the lower part of `region` (the whole image when null); null when none is found. */
  read(
    image: RgbImage,
    region: { left: number; top: number; width: number; height: number } | null,
    now: Date,
  ): Promise<MrzFindings | null>;
  /** Starts the OCR worker (about 0.3 s). */
  load(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The band is read at the first width, and at the next ones while lines with fillers were seen
 * but no MRZ was found or a check digit failed; the read with the most passing checks is kept. On our synthetic MRZs Tesseract
 * dropped a character after a run of fillers at some scales and not at others.
 */
const BAND_WIDTHS = [800, 1000, 1200];

/** The share of the document, from its bottom, where the MRZ is looked for. */
const MRZ_BAND = 0.4;

export function makeMrzReader(): MrzReader {
  let worker: Promise<Worker> | undefined;
  let queue: Promise<unknown> = Promise.resolve();
  const { parse } = require('mrz') as typeof import('mrz');

  function ocr(): Promise<Worker> {
    worker ??= (async () => {
      const { createWorker, PSM } = require('tesseract.js') as Tesseract;
      const langPath = path.join(
        path.dirname(require.resolve('@tesseract.js-data/eng/package.json')),
        '4.0.0_best_int',
      );
      // cacheMethod none: the model is read from the package, never written or fetched.
      const w = await createWorker('eng', 1, {
        langPath,
        gzip: true,
        cacheMethod: 'none',
        logger: () => undefined,
        errorHandler: () => undefined,
      });
      await w.setParameters({
        tessedit_char_whitelist: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<',
        tessedit_pageseg_mode: PSM.SINGLE_BLOCK,
        user_defined_dpi: '300',
      });
      return w;
    })();
    worker.catch(() => (worker = undefined));
    return worker;
  }

  async function band(
    image: RgbImage,
    region: { left: number; top: number; width: number; height: number } | null,
    width: number,
  ): Promise<Buffer> {
    const r = region ?? { left: 0, top: 0, width: image.width, height: image.height };
    const top = r.top + Math.round(r.height * (1 - MRZ_BAND));
    const crop = { left: r.left, top, width: r.width, height: r.top + r.height - top };
    // Grey, stretched contrast, `width` wide: Tesseract reads characters 20 to 30 px tall best
    // (larger ones, it drops the odd character after a run of fillers).
    return (
      sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } })
        .extract(crop)
        .resize({ width })
        .greyscale()
        .normalise()
        // A margin: Tesseract drops characters that touch the picture's edge.
        .extend({ top: 24, bottom: 24, left: 24, right: 24, extendWith: 'copy' })
        .png()
        .toBuffer()
    );
  }

  return {
    async read(image, region, now) {
      let best: MrzFindings | null = null;
      for (const width of BAND_WIDTHS) {
        const png = await band(image, region, width);
        const run = queue.then(async () => (await ocr()).recognize(png));
        queue = run.catch(() => undefined);
        const { data } = await run;
        const candidates = mrzCandidates(data.text);
        // Nothing like an MRZ line (fillers) at all: other scales will not find one either.
        if (!candidates.some((l) => l.includes('<<'))) break;
        const found = findMrz(candidates, parse);
        const findings = found ? mrzFindings(found, now) : null;
        const passed = (f: MrzFindings | null) =>
          f ? f.checks.filter((c) => c.passed).length - f.checks.length : -Infinity;
        if (findings && passed(findings) > passed(best)) best = findings;
        if (best && best.checks.every((c) => c.passed)) break;
      }
      return best;
    },
    async load() {
      await ocr();
    },
    async close() {
      await queue;
      const held = worker;
      worker = undefined;
      if (held) await (await held.catch(() => undefined))?.terminate();
    },
  };
}
