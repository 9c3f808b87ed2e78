import net from 'node:net';
import sharp from 'sharp';
import { parseAamva } from '../../src/analysis/document/aamva';
import { findDocumentEdges } from '../../src/analysis/document/edges';
import { readDocumentBarcode, readPdf417 } from '../../src/analysis/document/pdf417';
import { decodeImage } from '../../src/analysis/image';
import { buildAamva, CALIFORNIA, ONTARIO } from './fixtures/aamva';
import { cardBack, cardFront, pdf417Png, photograph, type Shot } from './fixtures/documents';

const DOCUMENT_SIDE = 1600;

async function read(png: Buffer) {
  const image = await decodeImage(png, DOCUMENT_SIDE);
  if (!image) throw new Error('fixture did not decode');
  return readDocumentBarcode(image, findDocumentEdges(image).angle);
}

describe('readPdf417', () => {
  const data = buildAamva(CALIFORNIA);
  let back: Buffer;
  const connects: unknown[] = [];
  const originalConnect = net.Socket.prototype.connect;
  const originalFetch = globalThis.fetch;

  beforeAll(async () => {
    back = await cardBack(await pdf417Png(data));
    // Any network use by the reader (a CDN fetch of its wasm) would be seen here.
    net.Socket.prototype.connect = function (this: net.Socket, ...args: unknown[]) {
      connects.push(args);
      return (originalConnect as (...a: unknown[]) => net.Socket).apply(this, args);
    } as typeof net.Socket.prototype.connect;
    globalThis.fetch = ((...args: unknown[]) => {
      connects.push(args);
      return Promise.reject(new Error('no network in tests'));
    }) as typeof fetch;
  });

  afterAll(() => {
    net.Socket.prototype.connect = originalConnect;
    globalThis.fetch = originalFetch;
  });

  const shots: [string, Shot][] = [
    ['straight and centred', {}],
    ['rotated 8 degrees with noise', { rotate: 8, noise: 12 }],
    ['rotated -15 degrees', { rotate: -15 }],
    ['upside down', { rotate: 180 }],
    ['smaller in the frame, as a JPEG', { scale: 0.55, jpeg: true }],
    ['at phone resolution with noise', { width: 2400, height: 1800, rotate: 4, noise: 20, jpeg: true }],
  ];

  it.each(shots)(
    'when the back is photographed %s, then the AAMVA data is read byte for byte',
    async (_label, shot) => {
      const result = await read(await photograph(back, shot));
      expect(result).toEqual({ status: 'read', text: data });
      expect(parseAamva((result as { text: string }).text).fields?.lastName).toBe('SAMPLE');
    },
  );

  it('when a Canadian back is read, then the whole round trip gives its fields', async () => {
    const result = await read(
      await photograph(await cardBack(await pdf417Png(buildAamva(ONTARIO))), { rotate: 3, noise: 8 }),
    );
    expect(result.status).toBe('read');
    expect(parseAamva((result as { text: string }).text).fields?.dateOfBirth).toBe('1985-04-12');
  });

  it('when the image has no barcode, then not_found', async () => {
    const front = await photograph(
      await cardFront(
        await sharp({ create: { width: 260, height: 330, channels: 3, background: '#a08070' } })
          .png()
          .toBuffer(),
      ),
    );
    expect(await read(front)).toEqual({ status: 'not_found' });
  });

  it('when the barcode is damaged beyond its error correction, then it is unreadable, not absent', async () => {
    const symbol = await pdf417Png(data);
    const { width = 0, height = 0 } = await sharp(symbol).metadata();
    // Paint over the middle half of the symbol's data columns, keeping its start and stop patterns.
    const blot = await sharp({
      create: { width: Math.round(width * 0.5), height: Math.round(height * 0.8), channels: 3, background: '#ffffff' },
    })
      .png()
      .toBuffer();
    const damaged = await sharp(symbol)
      .composite([{ input: blot, left: Math.round(width * 0.25), top: Math.round(height * 0.1) }])
      .png()
      .toBuffer();
    const result = await read(await photograph(await cardBack(damaged)));
    expect(result.status).toBe('unreadable');
  });

  it('when a tilted back is read as taken, without straightening, then ZXing alone does not read it (why the engine straightens)', async () => {
    const image = await decodeImage(await photograph(back, { rotate: 8, noise: 12 }), DOCUMENT_SIDE);
    expect((await readPdf417(image!)).status).not.toBe('read');
  });

  it('made no network connection and no fetch', () => {
    expect(connects).toEqual([]);
  });
});
