/**
 * Faces in one image: each face the detector is sure enough of, with its L2-normalised
 * embedding, a liveness score, the estimated age and the detector's confidence.
 */
import type { FaceResult, Human } from '@vladmandic/human';
import type { FaceFindings } from '../../domain/verification/analysis';
import type { RgbImage } from '../image';

export interface DetectedFace extends FaceFindings {
  /** The face's box in the image's pixels: x, y, width, height. */
  box: [number, number, number, number];
}

export interface FaceOptions {
  /** The detector's confidence from which a face counts. */
  minConfidence: number;
  /** The smallest face box side (pixels of the decoded image) that counts. */
  minSize: number;
}

export const DEFAULT_FACE_OPTIONS: FaceOptions = { minConfidence: 0.5, minSize: 40 };

/** The vector scaled to unit length, so the dot product of two is their cosine similarity. */
export function l2normalise(values: ArrayLike<number>): number[] {
  let sum = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!; // i < values.length
    sum += v * v;
  }
  const norm = Math.sqrt(sum);
  if (!(norm > 0)) throw new Error('a face embedding of length zero cannot be normalised');
  return Array.from(values, (v) => v / norm);
}

/**
 * Liveness from Human's two single-image models: `real` (anti-spoofing: a print, a screen) and
 * `live` (liveness). Both must agree for a face to count as live, so the lower of the two is
 * reported; a model that gave nothing counts as 0 (not live: no made-up pass).
 */
function livenessOf(face: FaceResult): number {
  const real = typeof face.real === 'number' ? face.real : 0;
  const live = typeof face.live === 'number' ? face.live : 0;
  return Math.max(0, Math.min(1, Math.min(real, live)));
}

function toFinding(face: FaceResult): DetectedFace | null {
  if (!face.embedding || face.embedding.length === 0) return null;
  const [x, y, w, h] = face.box;
  return {
    embedding: l2normalise(face.embedding),
    liveness: livenessOf(face),
    age:
      typeof face.age === 'number' && Number.isFinite(face.age) && face.age > 0 ? Math.round(face.age * 10) / 10 : null,
    confidence: Math.max(0, Math.min(1, face.boxScore ?? face.score)),
    box: [Math.round(x), Math.round(y), Math.round(w), Math.round(h)],
  };
}

/**
 * Every face in the image at or above `minConfidence` and `minSize`, largest first. Human is
 * not safe to run twice at once (it keeps per-call state), so callers serialise calls.
 */
export async function detectFaces(
  human: Human,
  image: RgbImage,
  options: FaceOptions = DEFAULT_FACE_OPTIONS,
): Promise<DetectedFace[]> {
  const input = human.tf.tensor3d(image.data, [image.height, image.width, 3], 'int32');
  try {
    const result = await human.detect(input);
    return result.face
      .filter(
        (f) => (f.boxScore ?? f.score) >= options.minConfidence && Math.min(f.box[2], f.box[3]) >= options.minSize,
      )
      .map(toFinding)
      .filter((f): f is DetectedFace => f !== null)
      .sort((a, b) => b.box[2] * b.box[3] - a.box[2] * a.box[3]);
  } finally {
    human.tf.dispose(input);
  }
}
