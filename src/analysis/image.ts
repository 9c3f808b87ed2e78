/**
 * Uploaded bytes to pixels. Every model and reader here works on raw 8-bit RGB (or RGBA for the
 * barcode reader): sharp decodes JPEG, PNG and WebP, applies the EXIF orientation (a phone's
 * portrait photo arrives upright) and scales the image down so that its longer side is at most
 * `maxSide`; it never scales up.
 */
import sharp from 'sharp';

export interface RgbImage {
  /** Row-major RGB, 3 bytes a pixel. */
  data: Uint8Array;
  width: number;
  height: number;
}

/** Refuse decompression bombs: at most this many pixels in the source image. */
const MAX_INPUT_PIXELS = 64_000_000;

/**
 * The image as RGB pixels, or null when the bytes are not an image sharp can decode (truncated,
 * corrupt, another format). An expected outcome, so data and not an exception.
 */
export async function decodeImage(bytes: Buffer, maxSide: number): Promise<RgbImage | null> {
  try {
    const { data, info } = await sharp(bytes, { failOn: 'error', limitInputPixels: MAX_INPUT_PIXELS })
      .rotate()
      .resize({ width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true })
      .toColourspace('srgb')
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    if (info.channels !== 3 || info.width < 8 || info.height < 8) return null;
    return { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height };
  } catch {
    return null;
  }
}

/** The same pixels with an opaque alpha channel (the barcode reader takes RGBA, as the DOM's ImageData). */
export function toRgba(image: RgbImage): Uint8ClampedArray {
  const n = image.width * image.height;
  const out = new Uint8ClampedArray(n * 4);
  // i < n and the image holds n × 3 bytes.
  for (let i = 0, j = 0; i < n; i++, j += 4) {
    out[j] = image.data[i * 3]!;
    out[j + 1] = image.data[i * 3 + 1]!;
    out[j + 2] = image.data[i * 3 + 2]!;
    out[j + 3] = 255;
  }
  return out;
}

/** Scales an already decoded image so its longer side is at most `maxSide` (for the cheap passes: edges). */
export async function shrink(image: RgbImage, maxSide: number): Promise<RgbImage> {
  if (Math.max(image.width, image.height) <= maxSide) return image;
  const { data, info } = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } })
    .resize({ width: maxSide, height: maxSide, fit: 'inside' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height };
}

/** The image turned by `degrees` clockwise about its centre (the corners filled with the colour of the first pixel). */
export async function rotate(image: RgbImage, degrees: number): Promise<RgbImage> {
  const [r, g, b] = [image.data[0], image.data[1], image.data[2]];
  const { data, info } = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } })
    .rotate(degrees, { background: { r, g, b } })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height };
}
