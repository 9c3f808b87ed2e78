/**
 * The face part of the engine, with the real models, on photos cut from packages' sample
 * images (fixtures/faces.ts). The similarity thresholds are the ones docs/analysis.md
 * recommends; the figures printed there come from scripts/bench-analysis.js --similarity.
 */
import sharp from 'sharp';
import { makeLocalAnalysisEngine, REASONS, type LocalAnalysisEngine } from '../../src/analysis/engine';
import { cosine, FACE_THRESHOLDS } from '../../src/domain/verification/faces';
import type { AnalysisOutcome, FaceFindings } from '../../src/domain/verification/analysis';
import { at } from '../helpers/defined';
import { facePhotos, sameManOtherPhoto, twoFaces, variations, type FacePhoto } from './fixtures/faces';

/** The threshold in use: at or above, the same person (docs/analysis.md: above every pair of different people measured). */
const SAME_PERSON = FACE_THRESHOLDS.samePerson;

let engine: LocalAnalysisEngine;
let photos: FacePhoto[];

const selfie = (bytes: Buffer) =>
  engine.analyse({ type: 'face-match', captures: [{ kind: 'selfie', contentType: 'image/png', bytes }] });

/** Each fixture photo's embedding, computed once for the tests that compare many. */
const embeddings = new Map<string, Promise<number[]>>();
function embeddingOf(photo: FacePhoto): Promise<number[]> {
  if (!embeddings.has(photo.name))
    embeddings.set(
      photo.name,
      selfie(photo.png).then((o) => faceOf(o).embedding),
    );
  return embeddings.get(photo.name)!;
}

function faceOf(outcome: AnalysisOutcome): FaceFindings {
  if (outcome.outcome !== 'analysed') throw new Error(`expected a face, got ${JSON.stringify(outcome)}`);
  return outcome.selfie;
}

beforeAll(async () => {
  engine = makeLocalAnalysisEngine();
  await engine.warmUp();
  photos = await facePhotos();
}, 60_000);

afterAll(() => engine.close());

describe('a selfie with one face', () => {
  it('when analysed, then the findings are a unit 1024-value embedding, liveness and confidence in 0..1, and an age', async () => {
    const face = faceOf(await selfie(at(photos, 0).png));
    expect(face.embedding).toHaveLength(1024);
    expect(cosine(face.embedding, face.embedding)).toBeCloseTo(1, 5);
    expect(face.liveness).toBeGreaterThanOrEqual(0);
    expect(face.liveness).toBeLessThanOrEqual(1);
    expect(face.confidence).toBeGreaterThanOrEqual(0.5);
    expect(face.confidence).toBeLessThanOrEqual(1);
    expect(face.age).toBeGreaterThan(10);
    expect(face.age).toBeLessThan(80);
  });

  // One face from each group photo.
  const chosen = ['sample1#0', 'sample2#1', 'sample3#0', 'sample4#2', 'sample5#0', 'sample6#0'];
  it.each(chosen)(
    'when %s is cropped tighter, turned 10 degrees either way, made brighter or darker, or halved and JPEG-compressed, then it still matches itself',
    async (name) => {
      const photo = photos.find((p) => p.name === name)!;
      const original = faceOf(await selfie(photo.png));
      for (const [variation, bytes] of Object.entries(await variations(photo.png))) {
        const similarity = cosine(original.embedding, faceOf(await selfie(bytes)).embedding);
        expect({ variation, matches: similarity >= SAME_PERSON }).toEqual({ variation, matches: true });
      }
    },
  );

  it('when 27 different people are compared pairwise, then no pair reaches the same-person threshold and the typical pair is far below it', async () => {
    const all: number[][] = [];
    for (const p of photos) all.push(await embeddingOf(p));
    const pairs: number[] = [];
    for (let i = 0; i < all.length; i++) for (let j = i + 1; j < all.length; j++) pairs.push(cosine(all[i]!, all[j]!));
    expect(pairs).toHaveLength(351);
    expect(Math.max(...pairs)).toBeLessThan(SAME_PERSON);
    const sorted = [...pairs].sort((a, b) => a - b);
    expect(sorted[Math.floor(sorted.length / 2)]).toBeLessThan(0.5);
  }, 60_000);

  it('when the same man is in two different photos, then they are closer to each other than to any of 26 other people', async () => {
    const one = await embeddingOf(photos.find((p) => p.name === 'screenshot-facedetect#0')!);
    const other = faceOf(await selfie(await sameManOtherPhoto())).embedding;
    const same = cosine(one, other);
    const strangers = [];
    for (const p of photos.filter((x) => x.name !== 'screenshot-facedetect#0'))
      strangers.push(cosine(other, await embeddingOf(p)));
    expect(same).toBeGreaterThan(Math.max(...strangers));
    expect(same).toBeGreaterThan(0.5);
  }, 60_000);
});

describe('a selfie that cannot be used', () => {
  it('when it has no face, then a failed attempt that says to face the camera', async () => {
    const wall = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#b0a890' } })
      .png()
      .toBuffer();
    expect(await selfie(wall)).toEqual({ outcome: 'failed_attempt', reason: REASONS.noFace });
  });

  it('when it has two faces, then a failed attempt that says only one face may be in the frame', async () => {
    expect(await selfie(await twoFaces(at(photos, 0).png, at(photos, 5).png))).toEqual({
      outcome: 'failed_attempt',
      reason: REASONS.severalFaces,
    });
  });

  it('when it is not an image (or a truncated one), then a failed attempt that says to take it again', async () => {
    expect(await selfie(Buffer.from('not an image at all'))).toEqual({
      outcome: 'failed_attempt',
      reason: REASONS.selfieNotImage,
    });
    const jpeg = await sharp(at(photos, 0).png).jpeg().toBuffer();
    expect(await selfie(jpeg.subarray(0, Math.floor(jpeg.length / 3)))).toEqual({
      outcome: 'failed_attempt',
      reason: REASONS.selfieNotImage,
    });
  });
});
