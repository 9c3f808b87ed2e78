/**
 * PDF417 reading with ZXing-C++ compiled to WebAssembly (`zxing-wasm`, MIT; ZXing-C++ is
 * Apache-2.0). The `.wasm` is read from the installed package and handed to the module as its
 * `wasmBinary`: the package's default would fetch it from a CDN, which never happens here.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ReadResult } from 'zxing-wasm/reader';
import { rotate, toRgba, type RgbImage } from '../image';

type ZXingReader = typeof import('zxing-wasm/reader');

export type BarcodeRead =
  /** Decoded: the raw bytes as Latin-1 text (AAMVA data is ASCII; Latin-1 keeps every byte). */
  | { status: 'read'; text: string }
  /** A PDF417 symbol was found but its error correction could not recover the data. */
  | { status: 'unreadable'; error: string }
  | { status: 'not_found' };

let reader: Promise<ZXingReader> | undefined;

/** The reader module with its wasm loaded from disk; once per process (the module is a process-wide singleton). */
export function loadPdf417Reader(): Promise<ZXingReader> {
  reader ??= (async () => {
    const zxing = require('zxing-wasm/reader') as ZXingReader;
    const wasmFile = path.join(
      path.dirname(require.resolve('zxing-wasm/reader')),
      '..',
      '..',
      'reader',
      'zxing_reader.wasm',
    );
    const bytes = await fs.promises.readFile(wasmFile);
    const wasmBinary = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
    // `locateFile` is set too, so that nothing in the module can turn to the network for the file.
    await zxing.prepareZXingModule({ overrides: { wasmBinary, locateFile: () => wasmFile }, fireImmediately: true });
    return zxing;
  })();
  reader.catch(() => (reader = undefined));
  return reader;
}

const best = (results: ReadResult[]) => results.find((r) => r.isValid) ?? results[0];

const RANK = { read: 2, unreadable: 1, not_found: 0 } as const;

/**
 * Reads the PDF417 on a document's back. ZXing's PDF417 reader wants the symbol's rows close
 * to level (it failed at 3 degrees of tilt in our tests), so when the document's edges give its
 * tilt the photo is first turned level by that angle; the photo as taken is tried too.
 */
export async function readDocumentBarcode(image: RgbImage, tilt: number | null): Promise<BarcodeRead> {
  let best: BarcodeRead = { status: 'not_found' };
  if (tilt !== null && Math.abs(tilt) >= 0.5) {
    best = await readPdf417(await rotate(image, -tilt));
    if (best.status === 'read') return best;
  }
  const asTaken = await readPdf417(image);
  return RANK[asTaken.status] > RANK[best.status] ? asTaken : best;
}

/** Looks for a PDF417 symbol in the image (turned by any multiple of 90 degrees) and decodes it. */
export async function readPdf417(image: RgbImage): Promise<BarcodeRead> {
  const zxing = await loadPdf417Reader();
  const imageData = { data: toRgba(image), width: image.width, height: image.height, colorSpace: 'srgb' as const };
  const results = await zxing.readBarcodes(imageData as unknown as ImageData, {
    formats: ['PDF417'],
    tryHarder: true,
    tryRotate: true,
    tryInvert: false,
    tryDownscale: true,
    returnErrors: true,
    maxNumberOfSymbols: 2,
    textMode: 'Plain',
    characterSet: 'ISO8859_1',
  });
  const result = best(results);
  if (!result) return { status: 'not_found' };
  if (!result.isValid) return { status: 'unreadable', error: result.error || 'the symbol could not be decoded' };
  return { status: 'read', text: Buffer.from(result.bytes).toString('latin1') };
}
