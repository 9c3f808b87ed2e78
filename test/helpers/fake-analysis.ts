/**
 * A deterministic fake AnalysisEngine for tests of the verification flow (the real engine has
 * its own tests on real images). A test image is a valid JPEG header followed by `FAKE:` and a
 * JSON description of what the "model" is to find there: whose face, how live, the document's
 * fields. Embeddings are seeded unit vectors: the same person gives the same vector; another
 * person a nearly orthogonal one; `similarTo` gives a controlled cosine to a person.
 */
import { createHash } from 'node:crypto';
import type {
  AnalysisEngine,
  DocumentFields,
  DocumentFindings,
  FaceFindings,
} from '../../src/domain/verification/analysis';

const DIMS = 512;

export interface FakeFace {
  /** Whose face (the embedding's seed). */
  person: string;
  /** A cosine similarity to `person` instead of the person's own face. */
  similarity?: number;
  liveness?: number;
  age?: number | null;
}

export interface FakeImage {
  /** Faces in the image: none, one or several (a selfie needs exactly one). */
  faces?: FakeFace[];
  /** On the back: what the barcode gives. */
  barcode?: DocumentFindings['barcode'];
  fields?: Partial<DocumentFields>;
  checks?: { name: string; passed: boolean }[];
  /** On the front. */
  edges?: DocumentFindings['edges'];
  /** The engine cannot process the document at all. */
  unprocessable?: boolean;
}

const JPEG_HEAD = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00]);

/** A JPEG-headed image whose description the fake engine reads. */
export function fakeImage(description: FakeImage): Buffer {
  return Buffer.concat([JPEG_HEAD, Buffer.from(`FAKE:${JSON.stringify(description)}`), Buffer.from([0xff, 0xd9])]);
}

function readImage(bytes: Buffer): FakeImage | undefined {
  const at = bytes.indexOf('FAKE:');
  if (at < 0) return undefined;
  const end = bytes.lastIndexOf(Buffer.from([0xff, 0xd9]));
  return JSON.parse(bytes.subarray(at + 5, end > at ? end : bytes.length).toString('utf8')) as FakeImage;
}

/** A unit vector seeded by `seed` (SHA-256 counter stream → Box–Muller normals). */
export function seededUnitVector(seed: string): number[] {
  const values: number[] = [];
  for (let block = 0; values.length < DIMS; block++) {
    const h = createHash('sha256').update(`${seed}#${block}`).digest();
    for (let i = 0; i + 8 <= h.length && values.length < DIMS; i += 8) {
      const u1 = (h.readUInt32BE(i) + 1) / 2 ** 32;
      const u2 = h.readUInt32BE(i + 4) / 2 ** 32;
      values.push(Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2));
    }
  }
  const norm = Math.hypot(...values);
  return values.map((v) => v / norm);
}

function embeddingOf(face: FakeFace): number[] {
  const own = seededUnitVector(face.person);
  if (face.similarity === undefined) return own;
  // s·a + √(1−s²)·b with b orthogonalised against a: cosine exactly s.
  const noise = seededUnitVector(`${face.person}/other`);
  // Vectors of one length.
  const dot = noise.reduce((sum, v, i) => sum + v * own[i]!, 0);
  const orth = noise.map((v, i) => v - dot * own[i]!);
  const n = Math.hypot(...orth);
  const s = face.similarity;
  return own.map((v, i) => s * v + Math.sqrt(1 - s * s) * (orth[i]! / n));
}

function findings(face: FakeFace): FaceFindings {
  return {
    embedding: embeddingOf(face),
    liveness: face.liveness ?? 0.97,
    age: face.age === undefined ? 34 : face.age,
    confidence: 0.99,
  };
}

const EMPTY_FIELDS: DocumentFields = {
  firstName: '',
  lastName: '',
  dateOfBirth: null,
  dateOfExpiration: null,
  dateOfIssue: null,
  idNumber: '',
  idNumber2: null,
  address: { street: '', city: '', state: '', postalCode: '', country: '' },
  countryCode: null,
  state: '',
  templateType: 'unknown',
};

export const fakeAnalysisEngine: AnalysisEngine = {
  async analyse(input) {
    const image = (kind: string) => {
      const capture = input.captures.find((c) => c.kind === kind);
      return capture ? readImage(capture.bytes) : undefined;
    };
    const selfie = image('selfie');
    const faces = selfie?.faces ?? [];
    if (faces.length !== 1) {
      return {
        outcome: 'failed_attempt',
        reason: faces.length === 0 ? 'No face was found in the selfie' : 'Several faces were found in the selfie',
      };
    }
    const face = faces[0]!; // exactly one, as checked above
    if (input.type === 'face-match') return { outcome: 'analysed', selfie: findings(face) };
    const front = image('id_front') ?? {};
    const back = image('id_back') ?? {};
    if (front.unprocessable || back.unprocessable)
      return { outcome: 'not_processable', reason: 'The document could not be processed' };
    const fields = back.fields
      ? { ...EMPTY_FIELDS, ...back.fields, address: { ...EMPTY_FIELDS.address, ...back.fields.address } }
      : null;
    return {
      outcome: 'analysed',
      selfie: findings(face),
      document: {
        barcode: back.barcode ?? (fields ? 'read' : 'not_found'),
        source: fields ? 'pdf417' : null,
        fields,
        checks: back.checks ?? (fields ? [{ name: 'aamva_header', passed: true }] : []),
        face: front.faces?.[0] ? findings(front.faces[0]) : null,
        edges: front.edges ?? 'full',
      },
    };
  },
};

/**
 * The fake engine with models that take until the test says: `warmUp()` settles when `loaded()`
 * or `failed()` is called (GET /readyz's tests).
 */
export function slowFakeAnalysisEngine() {
  let settle: { resolve: () => void; reject: (err: Error) => void } | undefined;
  const warming = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
  const engine: AnalysisEngine = { ...fakeAnalysisEngine, warmUp: () => warming };
  return {
    engine,
    loaded: () => settle!.resolve(),
    failed: (message: string) => settle!.reject(new Error(message)),
  };
}
