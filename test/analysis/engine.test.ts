/**
 * The whole engine on an ID Check: a selfie of one person, a synthetic licence whose front
 * carries a portrait and whose back carries the AAMVA PDF417 (fixtures/documents.ts).
 */
import sharp from 'sharp';
import { cosine } from '../../src/domain/verification/faces';
import { makeLocalAnalysisEngine, REASONS, type LocalAnalysisEngine } from '../../src/analysis/engine';
import type { AnalysisInput, AnalysisOutcome, DocumentFindings } from '../../src/domain/verification/analysis';
import { buildAamva, CALIFORNIA } from './fixtures/aamva';
import { cardBack, cardFront, pdf417Png, photograph } from './fixtures/documents';
import { facePhotos, variations, type FacePhoto } from './fixtures/faces';

let engine: LocalAnalysisEngine;
let photos: FacePhoto[];
let back: Buffer;
const personA = () => photos.find((p) => p.name === 'sample3#0')!;
const personB = () => photos.find((p) => p.name === 'sample5#0')!;

const idCheck = (selfie: Buffer, front: Buffer, backPhoto: Buffer) =>
  engine.analyse({
    type: 'id-check',
    captures: [
      { kind: 'selfie', contentType: 'image/png', bytes: selfie },
      { kind: 'id_front', contentType: 'image/png', bytes: front },
      { kind: 'id_back', contentType: 'image/png', bytes: backPhoto },
    ],
  });

function documentOf(outcome: AnalysisOutcome): { selfie: { embedding: number[] }; document: DocumentFindings } {
  if (outcome.outcome !== 'analysed' || !outcome.document)
    throw new Error(`expected document findings, got ${JSON.stringify(outcome).slice(0, 300)}`);
  return { selfie: outcome.selfie, document: outcome.document };
}

beforeAll(async () => {
  engine = makeLocalAnalysisEngine();
  await engine.warmUp();
  photos = await facePhotos();
  back = await photograph(await cardBack(await pdf417Png(buildAamva(CALIFORNIA))), {
    rotate: -4,
    noise: 10,
    jpeg: true,
  });
}, 60_000);

afterAll(() => engine.close());

describe('ID Check', () => {
  it("when the selfie and the licence's portrait are the same person, then fields, barcode read, the portrait, full edges and a high similarity", async () => {
    // The selfie is a different rendering of the person than the portrait (turned, brighter).
    const selfie = (await variations(personA().png)).rotated_10deg;
    const front = await photograph(await cardFront(personA().png), { rotate: 3, noise: 8, jpeg: true });
    const { selfie: face, document } = documentOf(await idCheck(selfie, front, back));
    expect(document.barcode).toBe('read');
    expect(document.source).toBe('pdf417');
    expect(document.fields).toMatchObject({
      firstName: 'ALEXANDRA',
      lastName: 'SAMPLE',
      dateOfBirth: '1990-08-31',
      dateOfExpiration: '2029-08-31',
      dateOfIssue: '2021-08-31',
      idNumber: 'I1234568',
      countryCode: 'US',
      state: 'CA',
      templateType: 'driver_license',
    });
    expect(document.checks.length).toBeGreaterThanOrEqual(6);
    expect(document.checks.filter((c) => !c.passed)).toEqual([]);
    expect(document.edges).toBe('full');
    expect(document.face).not.toBeNull();
    expect(cosine(face.embedding, document.face!.embedding)).toBeGreaterThan(0.7);
  });

  it("when the licence's portrait is another person, then the similarity is low", async () => {
    const front = await photograph(await cardFront(personB().png), { rotate: -2 });
    const { selfie: face, document } = documentOf(await idCheck(personA().png, front, back));
    expect(document.face).not.toBeNull();
    expect(cosine(face.embedding, document.face!.embedding)).toBeLessThan(0.5);
  });

  it('when the back has no barcode, then the document is still analysed: barcode not_found, no fields, no checks claimed', async () => {
    const front = await photograph(await cardFront(personA().png));
    const blankBack = await photograph(
      await cardBack(
        await sharp({ create: { width: 400, height: 60, channels: 3, background: '#ece7da' } })
          .png()
          .toBuffer(),
      ),
    );
    const { document } = documentOf(await idCheck(personA().png, front, blankBack));
    expect(document).toMatchObject({ barcode: 'not_found', source: null, fields: null, checks: [], edges: 'full' });
    expect(document.face).not.toBeNull();
  });

  it('when the card runs off the frame, then edges partial', async () => {
    const front = await photograph(await cardFront(personA().png), { centre: [0.75, 0.5] });
    expect(documentOf(await idCheck(personA().png, front, back)).document.edges).toBe('partial');
  });

  it('when the "document" photos are of a plain wall, then not processable', async () => {
    const wall = await sharp({ create: { width: 1280, height: 960, channels: 3, background: '#8a8070' } })
      .jpeg()
      .toBuffer();
    expect(await idCheck(personA().png, wall, wall)).toEqual({
      outcome: 'not_processable',
      reason: REASONS.noDocument,
    });
  });

  it('when a document photo is not an image, then not processable', async () => {
    expect(await idCheck(personA().png, Buffer.from('%PDF-1.4 ...'), back)).toEqual({
      outcome: 'not_processable',
      reason: REASONS.documentNotImage,
    });
  });

  it('when the selfie has no face, then a failed attempt, whatever the document', async () => {
    const wall = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#8a8070' } })
      .png()
      .toBuffer();
    expect(await idCheck(wall, wall, back)).toEqual({ outcome: 'failed_attempt', reason: REASONS.noFace });
  });

  it('when an ID Check lacks a document side, then it is a programming error, not an outcome', async () => {
    const input: AnalysisInput = {
      type: 'id-check',
      captures: [{ kind: 'selfie', contentType: 'image/png', bytes: personA().png }],
    };
    await expect(engine.analyse(input)).rejects.toThrow(/id_front and id_back/);
  });

  it('when several analyses run at once, then each gets its own findings', async () => {
    const faceMatch = (p: FacePhoto) =>
      engine.analyse({ type: 'face-match', captures: [{ kind: 'selfie', contentType: 'image/png', bytes: p.png }] });
    const [a, b] = await Promise.all([faceMatch(personA()), faceMatch(personB())]);
    const a2 = await engine.analyse({
      type: 'face-match',
      captures: [{ kind: 'selfie', contentType: 'image/png', bytes: personA().png }],
    });
    if (a.outcome !== 'analysed' || b.outcome !== 'analysed' || a2.outcome !== 'analysed')
      throw new Error('expected faces');
    expect(cosine(a.selfie.embedding, a2.selfie.embedding)).toBeGreaterThan(0.99);
    expect(cosine(a.selfie.embedding, b.selfie.embedding)).toBeLessThan(0.7);
  });
});

describe('close', () => {
  it('when the engine is closed, then the next analysis loads the models again and still works', async () => {
    const other = makeLocalAnalysisEngine();
    const before = await other.analyse({
      type: 'face-match',
      captures: [{ kind: 'selfie', contentType: 'image/png', bytes: personB().png }],
    });
    await other.close();
    const after = await other.analyse({
      type: 'face-match',
      captures: [{ kind: 'selfie', contentType: 'image/png', bytes: personB().png }],
    });
    await other.close();
    if (before.outcome !== 'analysed' || after.outcome !== 'analysed') throw new Error('expected faces');
    expect(cosine(before.selfie.embedding, after.selfie.embedding)).toBeGreaterThan(0.99);
  });
});
