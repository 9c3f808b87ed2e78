import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { findDocumentEdges } from '../../src/analysis/document/edges';
import { decodeImage } from '../../src/analysis/image';
import { at } from '../helpers/defined';
import { cardFront, photograph, type Shot } from './fixtures/documents';
import { facePhotos } from './fixtures/faces';

async function edgesOf(png: Buffer) {
  const image = await decodeImage(png, 1600);
  if (!image) throw new Error('fixture did not decode');
  return findDocumentEdges(image);
}

describe('findDocumentEdges', () => {
  let front: Buffer;
  beforeAll(async () => {
    front = await cardFront(at(await facePhotos(), 0).png);
  });

  const full: [string, Shot, number][] = [
    ['centred', {}, 0],
    ['turned 6 degrees, noisy', { rotate: 6, noise: 15 }, 6],
    ['turned -20 degrees', { rotate: -20 }, -20],
    ['small in the frame, as a JPEG', { scale: 0.4, jpeg: true }, 0],
    ['upright (portrait orientation)', { rotate: 90, scale: 0.5 }, 0],
  ];
  it.each(full)('when the whole card is in the photo (%s), then full, with its tilt', async (_label, shot, tilt) => {
    const found = await edgesOf(await photograph(front, shot));
    expect(found.edges).toBe('full');
    expect(Math.abs((found.angle ?? 99) - tilt)).toBeLessThan(1);
    expect(found.rectangularity).toBeGreaterThan(0.95);
    expect(found.corners).toHaveLength(4);
  });

  const partial: [string, Shot][] = [
    ['off the right side', { centre: [0.8, 0.5] }],
    ['off the bottom, turned', { centre: [0.5, 0.85], rotate: 5 }],
    ['off a corner', { centre: [0.15, 0.15] }],
  ];
  it.each(partial)('when the card runs %s, then partial', async (_label, shot) => {
    expect((await edgesOf(await photograph(front, shot))).edges).toBe('partial');
  });

  it('when the photo is a face, a plain wall or a group photo, then none', async () => {
    const face = at(await facePhotos(), 3).png;
    const wall = await sharp({ create: { width: 800, height: 600, channels: 3, background: '#777777' } })
      .png()
      .toBuffer();
    const group = fs.readFileSync(
      path.join(path.dirname(require.resolve('@vladmandic/face-api/package.json')), 'demo', 'sample1.jpg'),
    );
    for (const png of [face, wall, group]) expect((await edgesOf(png)).edges).toBe('none');
  });

  it('when the card is the same colour as the surface, then none (the method needs contrast)', async () => {
    const beige = await sharp({ create: { width: 1280, height: 960, channels: 3, background: '#ece7da' } })
      .composite([{ input: await sharp(front).resize(900).png().toBuffer(), left: 190, top: 200 }])
      .png()
      .toBuffer();
    expect((await edgesOf(beige)).edges).toBe('none');
  });
});
