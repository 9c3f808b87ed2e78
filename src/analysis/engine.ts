/**
 * The local analysis engine: faces with Human's models on TensorFlow.js's WebAssembly backend,
 * the PDF417 with ZXing (WebAssembly), AAMVA parsing, document edges; all in this process,
 * nothing sent anywhere. It reports findings only; the verdicts are `src/domain/verification/`'s.
 *
 * Outcomes:
 * - selfie not an image, no face, or several faces: `failed_attempt` (the user may retry), with
 *   a reason that says what to do;
 * - ID Check whose document photos are not images, or show no document at all (no barcode, no
 *   MRZ, no document edges on either side, no portrait on the front): `not_processable`;
 * - otherwise `analysed`. A licence whose barcode cannot be read is still analysed, with the
 *   barcode `unreadable` (a symbol was seen) or `not_found` and no fields, so that the verdict
 *   code reports `id_barcode_status` and `id_validity` from what was and was not read.
 *
 * The models load once, on the first analysis or on `warmUp()`, and stay until `close()`.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Human } from '@vladmandic/human';
import type {
  AnalysisEngine,
  AnalysisInput,
  AnalysisOutcome,
  CaptureKind,
  DocumentFindings,
  FaceFindings,
} from '../domain/verification/analysis';
import { parseAamva } from './document/aamva';
import { findDocumentEdges, type EdgeFindings } from './document/edges';
import { makeMrzReader, type MrzFindings, type MrzReader } from './document/mrz';
import { loadPdf417Reader, readDocumentBarcode, type BarcodeRead } from './document/pdf417';
import { DEFAULT_FACE_OPTIONS, detectFaces, type DetectedFace, type FaceOptions } from './face/faces';
import { acquireHuman, defaultModelDir, releaseHuman } from './face/models';
import { decodeImage, rotate, type RgbImage } from './image';

export interface LocalAnalysisOptions {
  /** Folder of Human's models (default: the installed package's `models/`). */
  modelDir?: string;
  /** Selfies are scaled down to this longer side before detection (default 1280). */
  selfieMaxSide?: number;
  /** Document photos are scaled down to this longer side (default 1600: the barcode needs detail). */
  documentMaxSide?: number;
  /** Which detections count as faces (default: confidence 0.5, 40 px). */
  face?: Partial<FaceOptions>;
  /** Whether to look for an MRZ (OCR) when no barcode is read (default true). */
  mrz?: boolean;
  /** Today, for the MRZ's two-digit years (default: the system clock). */
  now?: () => Date;
}

export interface LocalAnalysisEngine extends AnalysisEngine {
  /** Loads the models and runs each once, so the first analysis is not the slow one. */
  warmUp(): Promise<void>;
  /** Waits for running analyses, then frees the models. The next analysis loads them again. */
  close(): Promise<void>;
}

/** The detector keeps at most this many faces an image: enough to tell one from several. */
const MAX_FACES = 5;

export const REASONS = {
  selfieNotImage: 'The selfie could not be read as an image; take the selfie again with the camera.',
  noFace: 'No face was found in the selfie; face the camera in good light, with your whole face in the frame.',
  severalFaces: 'More than one face was found in the selfie; make sure only your face is in the frame.',
  documentNotImage:
    'The photos of the document could not be read as images; photograph the front and the back of the document again.',
  noDocument:
    'No identity document was found in the photos; photograph the front and the back of the document, whole and flat, on a dark surface.',
} as const;

function latest(input: AnalysisInput, kind: CaptureKind) {
  const captures = input.captures.filter((c) => c.kind === kind);
  return captures.at(-1);
}

const publicFace = ({ embedding, liveness, age, confidence }: DetectedFace): FaceFindings => ({
  embedding,
  liveness,
  age,
  confidence,
});

/** Human's models, loaded once and kept until `release()`, and face detection on them. */
function makeFaceDetector(modelDir: string, options: FaceOptions) {
  let human: Promise<Human> | undefined;
  // Human keeps per-call state: one detection at a time, in arrival order.
  let queue: Promise<unknown> = Promise.resolve();

  function models(): Promise<Human> {
    if (!human) {
      const acquired = acquireHuman(modelDir, MAX_FACES);
      human = acquired;
      // A failed load is forgotten (by the shared loader too), so the next analysis tries again.
      acquired.catch(() => {
        if (human === acquired) human = undefined;
      });
    }
    return human;
  }

  return {
    models,
    detect(image: RgbImage): Promise<DetectedFace[]> {
      const run = queue.then(async () => detectFaces(await models(), image, options));
      queue = run.catch(() => undefined);
      return run;
    },
    /** Settles once the detections queued so far have run. */
    idle: () => queue,
    /** Frees the models, when they loaded. The next detection loads them again. */
    async release(): Promise<void> {
      const held = human;
      human = undefined;
      if (
        held &&
        (await held.then(
          () => true,
          () => false,
        ))
      )
        await releaseHuman();
    },
  };
}

/** What an analysis runs with: the engine's options resolved, its readers and models. */
interface Engine {
  faces: ReturnType<typeof makeFaceDetector>;
  mrzReader: MrzReader | null;
  selfieSide: number;
  documentSide: number;
  now: () => Date;
}

/** The MRZ on one side: in the lower part of the document, straightened by its tilt (of the photo, without a document). */
async function mrzOn(engine: Engine, image: RgbImage, edges: EdgeFindings): Promise<MrzFindings | null> {
  if (!engine.mrzReader) return null;
  const level = edges.angle !== null && Math.abs(edges.angle) >= 0.5 ? await rotate(image, -edges.angle) : image;
  const corners = edges.edges === 'none' ? null : (level === image ? edges : findDocumentEdges(level)).corners;
  let region = null;
  if (corners) {
    const left = Math.max(0, Math.floor(Math.min(...corners.map((c) => c[0]))));
    const top = Math.max(0, Math.floor(Math.min(...corners.map((c) => c[1]))));
    const right = Math.min(level.width, Math.ceil(Math.max(...corners.map((c) => c[0]))));
    const bottom = Math.min(level.height, Math.ceil(Math.max(...corners.map((c) => c[1]))));
    if (right - left >= 64 && bottom - top >= 64) region = { left, top, width: right - left, height: bottom - top };
  }
  return engine.mrzReader.read(level, region, engine.now());
}

/** The document's findings from its two sides; null when neither side shows a document. */
async function document(engine: Engine, front: RgbImage, back: RgbImage): Promise<DocumentFindings | null> {
  const frontEdges = findDocumentEdges(front);
  const backEdges = findDocumentEdges(back);
  // The portrait (face models, this thread) and the reading (barcode, then the MRZ in the OCR
  // worker's thread) run side by side: on two cores the OCR does not wait for the face models.
  const reading = (async () => {
    const barcode = await readDocumentBarcode(back, backEdges.angle);
    // No barcode read: an ID card's MRZ is on its back, a passport's on its data page (the front).
    const mrz =
      barcode.status === 'read'
        ? null
        : ((await mrzOn(engine, back, backEdges)) ?? (await mrzOn(engine, front, frontEdges)));
    return { barcode, mrz };
  })();
  const [portraits, { barcode, mrz }] = await Promise.all([engine.faces.detect(front), reading]);
  const face = portraits[0] ? publicFace(portraits[0]) : null;
  if (mrz) {
    // The document's machine-readable data is its MRZ: no PDF417 is expected, unless one was seen.
    const status = barcode.status === 'unreadable' ? 'unreadable' : 'not_applicable';
    return { barcode: status, source: 'mrz', fields: mrz.fields, checks: mrz.checks, face, edges: frontEdges.edges };
  }
  if (barcode.status === 'not_found' && frontEdges.edges === 'none' && backEdges.edges === 'none' && !face) return null;
  return { ...fromBarcode(barcode), face, edges: frontEdges.edges };
}

async function analyse(engine: Engine, input: AnalysisInput): Promise<AnalysisOutcome> {
  const selfieCapture = latest(input, 'selfie');
  if (!selfieCapture) throw new Error('analyse: no selfie among the captures');
  const frontCapture = latest(input, 'id_front');
  const backCapture = latest(input, 'id_back');
  if (input.type === 'id-check' && (!frontCapture || !backCapture))
    throw new Error('analyse: an ID Check needs id_front and id_back captures');

  const [selfie, front, back] = await Promise.all([
    decodeImage(selfieCapture.bytes, engine.selfieSide),
    input.type === 'id-check' && frontCapture ? decodeImage(frontCapture.bytes, engine.documentSide) : null,
    input.type === 'id-check' && backCapture ? decodeImage(backCapture.bytes, engine.documentSide) : null,
  ]);
  if (!selfie) return { outcome: 'failed_attempt', reason: REASONS.selfieNotImage };
  const found = await engine.faces.detect(selfie);
  const [first] = found;
  if (first === undefined) return { outcome: 'failed_attempt', reason: REASONS.noFace };
  if (found.length > 1) return { outcome: 'failed_attempt', reason: REASONS.severalFaces };
  const selfieFace = publicFace(first);
  if (input.type === 'face-match') return { outcome: 'analysed', selfie: selfieFace };

  if (!front || !back) return { outcome: 'not_processable', reason: REASONS.documentNotImage };
  const findings = await document(engine, front, back);
  if (!findings) return { outcome: 'not_processable', reason: REASONS.noDocument };
  return { outcome: 'analysed', selfie: selfieFace, document: findings };
}

async function warmUp(engine: Engine): Promise<void> {
  await Promise.all([engine.faces.models(), loadPdf417Reader(), engine.mrzReader?.load()]);
  // The first run of each model compiles its kernels: run them on a face (Human's own
  // screenshot of its author, shipped in its package) when it is there, else on a blank image.
  const sample = path.join(path.dirname(require.resolve('@vladmandic/human')), '..', 'assets', 'screenshot-faceid.jpg');
  const bytes = fs.existsSync(sample) ? fs.readFileSync(sample) : undefined;
  const image = (bytes && (await decodeImage(bytes, engine.selfieSide))) || {
    data: new Uint8Array(64 * 64 * 3),
    width: 64,
    height: 64,
  };
  await engine.faces.detect(image);
}

export function makeLocalAnalysisEngine(options: LocalAnalysisOptions = {}): LocalAnalysisEngine {
  const engine: Engine = {
    faces: makeFaceDetector(options.modelDir ?? defaultModelDir(), { ...DEFAULT_FACE_OPTIONS, ...options.face }),
    mrzReader: options.mrz === false ? null : makeMrzReader(),
    selfieSide: options.selfieMaxSide ?? 1280,
    documentSide: options.documentMaxSide ?? 1600,
    now: options.now ?? (() => new Date()),
  };
  return {
    analyse: (input) => analyse(engine, input),
    warmUp: () => warmUp(engine),
    async close(): Promise<void> {
      await engine.faces.idle();
      await engine.mrzReader?.close();
      await engine.faces.release();
    },
  };
}

/** The barcode's part of the findings: its status, and the AAMVA fields and checks when it was read. */
function fromBarcode(barcode: BarcodeRead): Pick<DocumentFindings, 'barcode' | 'source' | 'fields' | 'checks'> {
  if (barcode.status !== 'read') return { barcode: barcode.status, source: null, fields: null, checks: [] };
  const parsed = parseAamva(barcode.text);
  return { barcode: 'read', source: parsed.fields ? 'pdf417' : null, fields: parsed.fields, checks: parsed.checks };
}
