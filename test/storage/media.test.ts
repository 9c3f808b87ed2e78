/**
 * The media store port (storage/media.ts), one set of tests run against each store: the local
 * files (what SQLite installations use) and the database table (what PostgreSQL installations
 * use, run here on the test's engine: SQLite, or PostgreSQL with DATABASE_URL). Then what only
 * the table has: one URL-signing key for every node, kept sealed in installation_secrets, and
 * the import of a node's files from before.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fixedClock, systemRandom } from '../../src/clock';
import type { ImageType } from '../../src/domain/verification/analysis';
import { makeSecretBox } from '../../src/security/secrets';
import { makeLocalMediaStore, makeMediaUrls, sealMedia, type MediaStore } from '../../src/storage/media';
import { makeDatabaseMediaStore, MEDIA_URL_SIGNING_KEY } from '../../src/storage/postgres/media';
import { importLocalMedia } from '../../src/storage/postgres/media-import';
import { makeInstallationSecrets } from '../../src/storage/repositories/installation-secrets';
import { makeVerificationRepository } from '../../src/storage/repositories/verifications';
import { insertProject, makeTestDb, type TestDb } from '../helpers/db';

let testDb: TestDb;
let tmp: string;
beforeAll(async () => {
  testDb = await makeTestDb();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tg-media-'));
});
afterAll(async () => {
  await testDb.destroy();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const clock = fixedClock('2026-12-07T08:00:00.000Z');
const secretBox = makeSecretBox(randomBytes(32), systemRandom);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('PERSONAL-DATA-MARKER')]);
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47]), randomBytes(64)]);

const databaseStore = (box = secretBox) =>
  makeDatabaseMediaStore({
    db: testDb.db,
    secretBox: box,
    random: systemRandom,
    clock,
    secrets: makeInstallationSecrets(testDb.db),
  });
let dirs = 0;
const freshDir = () => path.join(tmp, `store-${dirs++}`);

/** Each store, with what it keeps at rest for an id (the file's text, the row's sealed text). */
const stores: [string, () => { store: MediaStore; atRest(id: string): Promise<string | undefined> }][] = [
  [
    'local files',
    () => {
      const dir = freshDir();
      return {
        store: makeLocalMediaStore(dir, secretBox, systemRandom),
        atRest: async (id) => {
          const file = path.join(dir, `${id}.bin`);
          return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
        },
      };
    },
  ],
  [
    'database table',
    () => ({
      store: databaseStore(),
      atRest: async (id) => (await testDb.db('media').where({ id }).first('sealed'))?.sealed as string | undefined,
    }),
  ],
];

describe.each(stores)('the media store port: %s', (_name, make) => {
  test('when images are put, then each is got back by its id with its type, bytes unchanged', async () => {
    const { store } = make();
    const images: [Buffer, ImageType][] = [
      [JPEG, 'image/jpeg'],
      [PNG, 'image/png'],
    ];
    const ids = await Promise.all(images.map(([bytes, type]) => store.put(bytes, type)));
    expect(new Set(ids).size).toBe(2);
    for (const [i, id] of ids.entries()) {
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      expect(await store.get(id)).toEqual({ bytes: images[i]![0], contentType: images[i]![1] });
    }
  });

  test('when an image is at rest, then neither its bytes nor its type is in the clear', async () => {
    const { store, atRest } = make();
    const id = await store.put(JPEG, 'image/jpeg');
    const sealed = (await atRest(id))!;
    expect(sealed).toMatch(/^v2\./);
    expect(sealed).not.toContain('PERSONAL-DATA-MARKER');
    expect(sealed).not.toContain(JPEG.toString('base64').slice(4, 20));
    expect(sealed).not.toContain('image/jpeg');
  });

  test('when an id is unknown or not a media id, then get answers undefined and delete does nothing', async () => {
    const { store } = make();
    const kept = await store.put(JPEG, 'image/jpeg');
    expect(await store.get('00000000-0000-4000-8000-000000000000')).toBeUndefined();
    expect(await store.get('../secret.key')).toBeUndefined();
    await store.delete('../secret.key');
    await store.delete('00000000-0000-4000-8000-000000000000');
    expect(await store.get(kept)).toBeDefined();
  });

  test('when an image is deleted, then it is gone at rest and get answers undefined; deleting again does nothing', async () => {
    const { store, atRest } = make();
    const id = await store.put(JPEG, 'image/jpeg');
    const other = await store.put(PNG, 'image/png');
    await store.delete(id);
    expect(await store.get(id)).toBeUndefined();
    expect(await atRest(id)).toBeUndefined();
    await store.delete(id);
    expect((await store.get(other))?.bytes).toEqual(PNG);
  });

  test('when the signing key is asked for again, then it is the same 32-byte key', async () => {
    const { store } = make();
    const key = await store.signingKey();
    expect(key).toHaveLength(32);
    expect(await store.signingKey()).toEqual(key);
  });
});

describe('the database table: one installation, several nodes', () => {
  test('when several nodes sign at once, then they sign with one key, sealed in installation_secrets, and each opens the others’ URLs', async () => {
    await testDb.db('installation_secrets').where({ name: MEDIA_URL_SIGNING_KEY }).delete();
    const nodes = [databaseStore(), databaseStore(), databaseStore()];
    const keys = await Promise.all(nodes.map((n) => n.signingKey()));
    expect(keys[1]).toEqual(keys[0]);
    expect(keys[2]).toEqual(keys[0]);
    const sealed = (await makeInstallationSecrets(testDb.db).read(MEDIA_URL_SIGNING_KEY))!;
    expect(sealed).not.toContain(keys[0]!.toString('base64'));
    expect(Buffer.from(secretBox.decrypt(sealed), 'base64')).toEqual(keys[0]);

    const urls = nodes.map((n) => makeMediaUrls(n, clock, () => 'https://tg.example'));
    const id = await nodes[0]!.put(JPEG, 'image/jpeg');
    for (const signer of urls) {
      const signed = new URL((await signer.signId(id, 60_000)).url);
      for (const server of urls) {
        const opened = await server.open(id, signed.searchParams.get('expires'), signed.searchParams.get('signature'));
        expect(opened.bytes).toEqual(JPEG);
      }
    }
  });

  test('when a node whose secret key is another installation’s reads the key, then it fails rather than signing with a new one', async () => {
    await databaseStore().signingKey();
    const stranger = databaseStore(makeSecretBox(randomBytes(32), systemRandom));
    await expect(stranger.signingKey()).rejects.toThrow();
  });
});

describe('importLocalMedia: a node’s files from before the table', () => {
  test('when a node’s folder holds captured images, then the captured ones move into the table and every file goes', async () => {
    const dir = freshDir();
    const local = makeLocalMediaStore(dir, secretBox, systemRandom);
    const captured = await local.put(JPEG, 'image/jpeg');
    const erased = await local.put(PNG, 'image/png');
    const alreadyThere = await local.put(PNG, 'image/png');
    await local.signingKey();
    const capturedAt = clock.now().getTime() - 5000;
    await insertCaptures(captured, alreadyThere, capturedAt);
    // A row already imported (by a run that stopped before removing its file) stays as it is.
    await testDb
      .db('media')
      .insert({ id: alreadyThere, sealed: sealMedia(secretBox, JPEG, 'image/jpeg'), created_at: 1 });

    expect(await importLocalMedia(testDb.db, dir)).toEqual({ imported: 2, removed: 1 });
    expect(fs.readdirSync(dir)).toEqual([]);
    const table = databaseStore();
    expect(await table.get(captured)).toEqual({ bytes: JPEG, contentType: 'image/jpeg' });
    expect(await table.get(erased)).toBeUndefined();
    expect(await table.get(alreadyThere)).toEqual({ bytes: JPEG, contentType: 'image/jpeg' });
    const row = await testDb.db('media').where({ id: captured }).first('created_at');
    expect(Number(row.created_at)).toBe(capturedAt);

    expect(await importLocalMedia(testDb.db, dir)).toEqual({ imported: 0, removed: 0 });
    expect(await importLocalMedia(testDb.db, path.join(tmp, 'absent'))).toEqual({ imported: 0, removed: 0 });
  });
});

/** Capture rows naming the media ids, under a verification session of a project of their own. */
async function insertCaptures(first: string, second: string, at: number): Promise<void> {
  const repo = makeVerificationRepository(testDb.db, secretBox);
  const projectId = systemRandom.uuid();
  const sessionId = systemRandom.uuid();
  await insertProject(testDb.db, projectId, 'media import', clock.now());
  await repo.insert({
    id: sessionId,
    projectId,
    type: 'id-check',
    tokenHash: 'x',
    attempts: 0,
    state: 'open',
    createdAt: new Date(at),
    expiresAt: new Date(at + 60_000),
  });
  for (const [i, mediaId] of [first, second].entries())
    await repo.addCapture({
      id: systemRandom.uuid(),
      sessionId,
      kind: i === 0 ? 'selfie' : 'id_front',
      mediaId,
      contentType: 'image/jpeg',
      size: JPEG.length,
      createdAt: new Date(at),
    });
}
