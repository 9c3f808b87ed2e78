/**
 * What a test context's media store holds at rest, whichever the composition chose: on SQLite
 * the files of DATA_DIR/media, on PostgreSQL the rows of the media table (storage/postgres/media.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { TestContext } from './app';

type Stored = Pick<TestContext, 'testDb' | 'dataDir'>;

const fileOf = (ctx: Stored, id: string) => path.join(ctx.dataDir!, 'media', `${id}.bin`);

/** The ids of the images kept, sorted. */
export async function storedMediaIds(ctx: Stored): Promise<string[]> {
  if (ctx.testDb.dialect === 'postgresql') return ((await ctx.testDb.db('media').pluck('id')) as string[]).sort();
  const dir = path.join(ctx.dataDir!, 'media');
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.bin'))
    .map((f) => f.replace(/\.bin$/, ''))
    .sort();
}

/** The image `id` as kept at rest (the sealed text), or undefined when it is not kept. */
export async function storedMedia(ctx: Stored, id: string): Promise<string | undefined> {
  if (ctx.testDb.dialect === 'postgresql')
    return (await ctx.testDb.db('media').where({ id }).first('sealed'))?.sealed as string | undefined;
  return fs.existsSync(fileOf(ctx, id)) ? fs.readFileSync(fileOf(ctx, id), 'utf8') : undefined;
}

/** Removes the image `id` at rest, as an erasure's last step does. */
export async function removeStoredMedia(ctx: Stored, id: string): Promise<void> {
  if (ctx.testDb.dialect === 'postgresql') await ctx.testDb.db('media').where({ id }).delete();
  else fs.rmSync(fileOf(ctx, id));
}
