/**
 * Whether the document's four edges are in the photo. A simple, explainable method for a card
 * photographed on a surface that differs from it (the capture page asks for a dark surface):
 *
 * 1. Work on a small copy (longer side 320 px).
 * 2. Background model: the median colour of the frame's outermost 2-pixel ring.
 * 3. Every pixel's colour distance to that background; a pixel further than 40 (RGB, 0..255),
 *    or than 4 times the ring's own median distance on a busy surface, is "document".
 * 4. The largest 4-connected region of "document" pixels, with its holes filled (the
 *    portrait, the text: whatever is enclosed belongs to the card).
 * 5. The region's convex hull and its minimum-area bounding rectangle (rotating calipers).
 * 6. It is a document when it covers at least 8% of the photo and fills at least 85% of that
 *    rectangle (a rectangle with rounded corners fills about 98%).
 *    - `full`: no pixel of it on the frame's outermost row or column, and the rectangle's
 *      proportions are those of a card or a passport page (long side / short side 1.2 to 2.0);
 *    - `partial`: it touches the frame (a side or a corner is cut off);
 *    - `none`: no such region (no contrast with the surface, a cluttered background, a card
 *      filling the whole frame with no surface visible, or no document at all).
 * The rectangle's angle is also returned: the barcode reader straightens the photo with it.
 * Limits: a card on a surface of its own colour, strong shadows or glare across the edge, and a
 * strongly slanted (perspective) shot read as `none` or `partial`; nothing here tells a real
 * card from a print or a screen.
 */
import type { RgbImage } from '../image';

export type EdgeStatus = 'full' | 'partial' | 'none';

export interface EdgeFindings {
  edges: EdgeStatus;
  /**
   * The document rectangle's tilt: its sides' angle to the frame's axes modulo 90, degrees in
   * (-45, 45], clockwise positive; null with no document.
   */
  angle: number | null;
  /** The rectangle's corners in the input image's pixels; null with no document. */
  corners: [number, number][] | null;
  /** The region's area over the rectangle's (0..1); 0 with no region. */
  rectangularity: number;
  /** The region's share of the photo (0..1). */
  coverage: number;
}

const WORK_SIDE = 320;
const MIN_COVERAGE = 0.08;
/** The smallest colour distance (Euclidean, RGB 0..255) from the surface that counts as document. */
const MIN_CONTRAST = 40;
const MIN_RECTANGULARITY = 0.85;
const ASPECT = { min: 1.2, max: 2.0 };

/** Nearest-neighbour copy of the image with its longer side at most `side` (cheap, and enough here). */
function smallCopy(image: RgbImage, side: number): { data: Uint8Array; width: number; height: number; scale: number } {
  const scale = Math.min(1, side / Math.max(image.width, image.height));
  const width = Math.max(1, Math.round(image.width * scale));
  const height = Math.max(1, Math.round(image.height * scale));
  const data = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    const sy = Math.min(image.height - 1, Math.floor((y + 0.5) / scale));
    for (let x = 0; x < width; x++) {
      const sx = Math.min(image.width - 1, Math.floor((x + 0.5) / scale));
      const s = (sy * image.width + sx) * 3;
      const d = (y * width + x) * 3;
      // sx < image.width and sy < image.height, so s + 2 is within the image's width × height × 3 bytes.
      data[d] = image.data[s]!;
      data[d + 1] = image.data[s + 1]!;
      data[d + 2] = image.data[s + 2]!;
    }
  }
  return { data, width, height, scale };
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
}

/** Labels of the largest 4-connected region of `mask` (1 = in the region). */
function largestRegion(mask: Uint8Array, width: number, height: number): Uint8Array {
  const label = new Int32Array(width * height).fill(-1);
  const stack = new Int32Array(width * height);
  let bestLabel = -1;
  let bestSize = 0;
  let next = 0;
  for (let start = 0; start < mask.length; start++) {
    if (!mask[start] || label[start] !== -1) continue;
    let top = 0;
    let size = 0;
    stack[top++] = start;
    label[start] = next;
    while (top > 0) {
      const p = stack[--top]!; // top > 0: within the stack's pushed entries
      size++;
      const x = p % width;
      const neighbours = [x > 0 ? p - 1 : -1, x < width - 1 ? p + 1 : -1, p - width, p + width];
      for (const q of neighbours) {
        if (q >= 0 && q < mask.length && mask[q] && label[q] === -1) {
          label[q] = next;
          stack[top++] = q;
        }
      }
    }
    if (size > bestSize) {
      bestSize = size;
      bestLabel = next;
    }
    next++;
  }
  const region = new Uint8Array(width * height);
  for (let i = 0; i < region.length; i++) region[i] = label[i] === bestLabel && bestLabel !== -1 ? 1 : 0;
  return region;
}

/** The region with every hole filled: whatever the outside (reached from the frame) does not reach. */
function fillHoles(region: Uint8Array, width: number, height: number): Uint8Array {
  const outside = new Uint8Array(width * height);
  const stack: number[] = [];
  const push = (p: number) => {
    if (!region[p] && !outside[p]) {
      outside[p] = 1;
      stack.push(p);
    }
  };
  for (let x = 0; x < width; x++) {
    push(x);
    push((height - 1) * width + x);
  }
  for (let y = 0; y < height; y++) {
    push(y * width);
    push(y * width + width - 1);
  }
  while (stack.length) {
    const p = stack.pop()!;
    const x = p % width;
    if (x > 0) push(p - 1);
    if (x < width - 1) push(p + 1);
    if (p >= width) push(p - width);
    if (p < (height - 1) * width) push(p + width);
  }
  const filled = new Uint8Array(width * height);
  for (let i = 0; i < filled.length; i++) filled[i] = outside[i] ? 0 : 1;
  return filled;
}

type Point = [number, number];

/** Andrew's monotone chain. */
function convexHull(points: Point[]): Point[] {
  const pts = [...points].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  if (pts.length < 3) return pts;
  const cross = (o: Point, a: Point, b: Point) => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  const lower: Point[] = [];
  for (const p of pts) {
    while (lower.length >= 2 && cross(lower[lower.length - 2]!, lower[lower.length - 1]!, p) <= 0) lower.pop();
    lower.push(p);
  }
  const upper: Point[] = [];
  for (let i = pts.length - 1; i >= 0; i--) {
    const p = pts[i]!;
    while (upper.length >= 2 && cross(upper[upper.length - 2]!, upper[upper.length - 1]!, p) <= 0) upper.pop();
    upper.push(p);
  }
  return lower.slice(0, -1).concat(upper.slice(0, -1));
}

/** The minimum-area rectangle around a convex polygon: one of its sides lies along a hull edge. */
function minAreaRect(
  hull: Point[],
): { area: number; angle: number; long: number; short: number; corners: Point[] } | null {
  if (hull.length < 3) return null;
  let best: { area: number; angle: number; long: number; short: number; corners: Point[] } | null = null;
  for (let i = 0; i < hull.length; i++) {
    // i and (i + 1) % hull.length are both indices of the hull.
    const [x1, y1] = hull[i]!;
    const [x2, y2] = hull[(i + 1) % hull.length]!;
    const len = Math.hypot(x2 - x1, y2 - y1);
    if (len === 0) continue;
    const ux = (x2 - x1) / len;
    const uy = (y2 - y1) / len;
    let minU = Infinity;
    let maxU = -Infinity;
    let minV = Infinity;
    let maxV = -Infinity;
    for (const [x, y] of hull) {
      const u = x * ux + y * uy;
      const v = -x * uy + y * ux;
      minU = Math.min(minU, u);
      maxU = Math.max(maxU, u);
      minV = Math.min(minV, v);
      maxV = Math.max(maxV, v);
    }
    const w = maxU - minU;
    const h = maxV - minV;
    const area = w * h;
    if (!best || area < best.area) {
      const corner = (u: number, v: number): Point => [u * ux - v * uy, u * uy + v * ux];
      // The sides' tilt to the frame's axes, modulo 90 degrees, in (-45, 45].
      let angle = (Math.atan2(uy, ux) * 180) / Math.PI;
      angle = ((((angle + 45) % 90) + 90) % 90) - 45;
      if (angle === -45) angle = 45;
      best = {
        area,
        angle,
        long: Math.max(w, h),
        short: Math.min(w, h),
        corners: [corner(minU, minV), corner(maxU, minV), corner(maxU, maxV), corner(minU, maxV)],
      };
    }
  }
  return best;
}

const NONE: EdgeFindings = { edges: 'none', angle: null, corners: null, rectangularity: 0, coverage: 0 };

export function findDocumentEdges(image: RgbImage): EdgeFindings {
  const { data, width, height, scale } = smallCopy(image, WORK_SIDE);
  const n = width * height;
  if (width < 16 || height < 16) return NONE;

  // 2. The background: the outermost 2-pixel ring's median colour, and how much the ring varies.
  const ring: number[] = [];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (x < 2 || y < 2 || x >= width - 2 || y >= height - 2) ring.push(y * width + x);
    }
  }
  // Pixel indices below (the ring's and p) are < n, and data holds n × 3 bytes, distance n values.
  const background = (c: number) => median(ring.map((p) => data[p * 3 + c]!));
  const bgR = background(0);
  const bgG = background(1);
  const bgB = background(2);
  const distance = new Float32Array(n);
  for (let p = 0; p < n; p++)
    distance[p] = Math.hypot(data[p * 3]! - bgR, data[p * 3 + 1]! - bgG, data[p * 3 + 2]! - bgB);
  const ringSpread = median(ring.map((p) => distance[p]!));

  // 3. Document versus surface.
  const threshold = Math.max(MIN_CONTRAST, 4 * ringSpread);
  const mask = new Uint8Array(n);
  for (let p = 0; p < n; p++) mask[p] = distance[p]! > threshold ? 1 : 0;

  // 4. The largest region, holes filled.
  const region = fillHoles(largestRegion(mask, width, height), width, height);
  let area = 0;
  let touches = false;
  const extremes: Point[] = [];
  for (let y = 0; y < height; y++) {
    let first = -1;
    let last = -1;
    for (let x = 0; x < width; x++) {
      if (!region[y * width + x]) continue;
      area++;
      if (first === -1) first = x;
      last = x;
      if (x === 0 || y === 0 || x === width - 1 || y === height - 1) touches = true;
    }
    if (first !== -1) {
      // Pixel corners, so that the hull encloses whole pixels.
      extremes.push([first, y], [first, y + 1], [last + 1, y], [last + 1, y + 1]);
    }
  }
  const coverage = area / n;
  if (coverage < MIN_COVERAGE) return { ...NONE, coverage };

  // 5-6. Its rectangle, and whether the region is one.
  const rect = minAreaRect(convexHull(extremes));
  if (!rect) return { ...NONE, coverage };
  const rectangularity = Math.min(1, area / rect.area);
  const corners = rect.corners.map(([x, y]) => [x / scale, y / scale] as [number, number]);
  if (rectangularity < MIN_RECTANGULARITY) return { ...NONE, rectangularity, coverage };
  if (touches) return { edges: 'partial', angle: rect.angle, corners, rectangularity, coverage };
  const aspect = rect.long / rect.short;
  if (aspect < ASPECT.min || aspect > ASPECT.max) return { ...NONE, rectangularity, coverage };
  return { edges: 'full', angle: rect.angle, corners, rectangularity, coverage };
}
