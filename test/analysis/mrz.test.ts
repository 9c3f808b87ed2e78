import net from 'node:net';
import sharp from 'sharp';
import { parse } from 'mrz';
import { findMrz, mrzCandidates, mrzDate, mrzFindings } from '../../src/analysis/document/mrz';
import { cosine } from '../../src/domain/verification/faces';
import { makeLocalAnalysisEngine, type LocalAnalysisEngine } from '../../src/analysis/engine';
import type { AnalysisOutcome, DocumentFindings } from '../../src/domain/verification/analysis';
import { cardFront, photograph } from './fixtures/documents';
import { facePhotos } from './fixtures/faces';
import { checkDigit, idCardBack, passportPage, PASSPORT_HOLDER, td1, td3 } from './fixtures/mrz';

const NOW = new Date('2026-06-01T00:00:00Z');
const failed = (d: { checks: { name: string; passed: boolean }[] }) =>
  d.checks.filter((c) => !c.passed).map((c) => c.name);

describe('MRZ parsing', () => {
  it('computes ICAO check digits (the fixture is right)', () => {
    // ICAO 9303's own example: document number L898902C3, check digit 6; birth 740812, check digit 2.
    expect(checkDigit('L898902C3')).toBe('6');
    expect(checkDigit('740812')).toBe('2');
  });

  it('when a passport MRZ is read cleanly, then every field and every check digit', () => {
    const found = findMrz(mrzCandidates(td3(PASSPORT_HOLDER).join('\n')), parse);
    expect(found?.format).toBe('TD3');
    const findings = mrzFindings(found!, NOW);
    expect(findings.fields).toEqual({
      firstName: 'SOPHIE CLAIRE',
      lastName: 'MARTIN',
      dateOfBirth: '1988-03-14',
      dateOfExpiration: '2032-09-18',
      dateOfIssue: null,
      idNumber: 'X4RTBPFW4',
      idNumber2: 'AB12345',
      address: { street: '', city: '', state: '', postalCode: '', country: '' },
      countryCode: 'GB',
      state: '',
      templateType: 'passport',
    });
    expect(findings.checks.map((c) => c.name)).toEqual([
      'mrz_document_number_check_digit',
      'mrz_birth_date_check_digit',
      'mrz_expiration_date_check_digit',
      'mrz_personal_number_check_digit',
      'mrz_composite_check_digit',
      'mrz_country_code',
      'dates_consistent',
    ]);
    expect(failed(findings)).toEqual([]);
  });

  it('when OCR confuses O and 0 in a date and drops trailing fillers, then the parser corrects them and the checks still hold', () => {
    const [l1, l2] = td3(PASSPORT_HOLDER);
    const ocr = `${l1.slice(0, 40)}\n${l2.replace('880314', '88O314')}`;
    const findings = mrzFindings(findMrz(mrzCandidates(ocr), parse)!, NOW);
    expect(findings.fields.dateOfBirth).toBe('1988-03-14');
    expect(failed(findings)).toEqual([]);
  });

  it('when a digit of the expiry was changed, then its check digit and the composite fail', () => {
    const [l1, l2] = td3(PASSPORT_HOLDER);
    const findings = mrzFindings(findMrz([l1, l2.replace('320918', '350918')], parse)!, NOW);
    expect(failed(findings)).toEqual(['mrz_expiration_date_check_digit', 'mrz_composite_check_digit']);
  });

  it('when an ID card MRZ (three lines of 30) is read, then a national_id with its number and dates', () => {
    const findings = mrzFindings(findMrz(mrzCandidates(td1(PASSPORT_HOLDER).join('\n')), parse)!, NOW);
    expect(findings.format).toBe('TD1');
    expect(findings.fields).toMatchObject({
      templateType: 'national_id',
      idNumber: 'X4RTBPFW4',
      dateOfBirth: '1988-03-14',
      countryCode: 'GB',
    });
    expect(failed(findings)).toEqual([]);
  });

  it('when the text is not an MRZ (random capitals and fillers), then nothing is found', () => {
    const noise = [
      'THEQUICKBROWNFOXJUMPSOVER<<THELAZYDOG<<<<<<<<<',
      'ABCDEFGHIJKLMNOPQRSTUVWXYZ<<<<0123456789<<<<<<',
    ].join('\n');
    expect(findMrz(mrzCandidates(noise), parse)).toBeNull();
  });

  it('reads two-digit years: births in the past, expiries up to 50 years on', () => {
    expect(mrzDate('880314', 'birth', NOW)).toBe('1988-03-14');
    expect(mrzDate('100101', 'birth', NOW)).toBe('2010-01-01');
    expect(mrzDate('300101', 'birth', NOW)).toBe('1930-01-01');
    expect(mrzDate('320918', 'expiry', NOW)).toBe('2032-09-18');
    expect(mrzDate('991231', 'expiry', NOW)).toBe('2099-12-31');
    expect(mrzDate('240230', 'expiry', NOW)).toBeNull();
    expect(mrzDate('<<<<<<', 'birth', NOW)).toBeNull();
  });
});

describe('MRZ through the engine (OCR with Tesseract)', () => {
  let engine: LocalAnalysisEngine;
  let selfie: Buffer;
  let portrait: Buffer;
  const connects: unknown[] = [];
  const originalConnect = net.Socket.prototype.connect;

  beforeAll(async () => {
    net.Socket.prototype.connect = function (this: net.Socket, ...args: unknown[]) {
      connects.push(args);
      return (originalConnect as (...a: unknown[]) => net.Socket).apply(this, args);
    } as typeof net.Socket.prototype.connect;
    engine = makeLocalAnalysisEngine({ now: () => NOW });
    await engine.warmUp();
    const photos = await facePhotos();
    portrait = photos.find((p) => p.name === 'sample6#2')!.png;
    selfie = await sharp(portrait).modulate({ brightness: 1.1 }).rotate(-8, { background: '#777777' }).png().toBuffer();
  }, 60_000);

  afterAll(async () => {
    net.Socket.prototype.connect = originalConnect;
    await engine.close();
  });

  const idCheck = (front: Buffer, back: Buffer): Promise<AnalysisOutcome> =>
    engine.analyse({
      type: 'id-check',
      captures: [
        { kind: 'selfie', contentType: 'image/png', bytes: selfie },
        { kind: 'id_front', contentType: 'image/jpeg', bytes: front },
        { kind: 'id_back', contentType: 'image/jpeg', bytes: back },
      ],
    });

  const documentOf = (outcome: AnalysisOutcome): DocumentFindings => {
    if (outcome.outcome !== 'analysed' || !outcome.document) throw new Error(JSON.stringify(outcome).slice(0, 300));
    return outcome.document;
  };

  it('when the front is a passport data page (and the back its cover), then the MRZ is read from the front: passport fields, every check passed, no barcode expected', async () => {
    const front = await photograph(await passportPage(portrait, td3(PASSPORT_HOLDER)), {
      rotate: 3,
      noise: 6,
      jpeg: true,
    });
    const cover = await photograph(
      await sharp({ create: { width: 880, height: 1250, channels: 3, background: '#6b1420' } })
        .png()
        .toBuffer(),
      { scale: 0.45, jpeg: true },
    );
    const document = documentOf(await idCheck(front, cover));
    expect(document).toMatchObject({ source: 'mrz', barcode: 'not_applicable', edges: 'full' });
    expect(document.fields).toMatchObject({
      templateType: 'passport',
      lastName: 'MARTIN',
      idNumber: 'X4RTBPFW4',
      dateOfBirth: '1988-03-14',
      dateOfExpiration: '2032-09-18',
      countryCode: 'GB',
    });
    expect(failed(document)).toEqual([]);
    expect(document.face).not.toBeNull();
  }, 30_000);

  it('when an ID card has its MRZ on the back, then it is read from the back, and the portrait on the front matches the selfie', async () => {
    const front = await photograph(await cardFront(portrait), { rotate: -2, jpeg: true });
    const back = await photograph(await idCardBack(td1(PASSPORT_HOLDER)), { rotate: -2, noise: 6, jpeg: true });
    const outcome = await idCheck(front, back);
    const document = documentOf(outcome);
    expect(document).toMatchObject({
      source: 'mrz',
      barcode: 'not_applicable',
      fields: { templateType: 'national_id', idNumber: 'X4RTBPFW4' },
    });
    expect(failed(document)).toEqual([]);
    if (outcome.outcome !== 'analysed') throw new Error('analysed expected');
    expect(cosine(outcome.selfie.embedding, document.face!.embedding)).toBeGreaterThan(0.7);
  }, 30_000);

  it('made no network connection (the OCR model and its wasm come from the packages)', () => {
    expect(connects).toEqual([]);
  });
});
