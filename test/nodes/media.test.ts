/**
 * Several nodes, one service: verification media. Three server processes (each with a DATA_DIR
 * and a port of its own) on one PostgreSQL database, as test/nodes/first-start.test.ts starts
 * them: an ID Check captured through one node and completed through another, its signed media
 * URLs made by each node and opened on every node, then erased through the balancer and gone
 * on every node and from the database (docs/deploy.md, *Where media live*); and a node of an
 * earlier version, whose images are on its disk, moving them into the table as it starts.
 * PostgreSQL only.
 *
 * The session is a test project's `test_verification_success` (docs/test-mode.md): the analysis
 * is replaced by test findings, so no node needs the models (ANALYSIS_ENGINE=off), and the
 * completing node still reads every capture from the media store.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { IdCheckResult } from '../../src/api-types';
import { makeServices } from '../../src/composition';
import { systemClock, systemRandom } from '../../src/clock';
import { makeSecretBox } from '../../src/security/secrets';
import { makeLocalMediaStore } from '../../src/storage/media';
import { makeDatabaseMediaStore } from '../../src/storage/postgres/media';
import { makeInstallationSecrets } from '../../src/storage/repositories/installation-secrets';
import { makeTestDb, type TestDb } from '../helpers/db';
import { bind, browserHeaders, personSession } from '../helpers/evaluation';
import { multiNodeFile, startNodes, type Nodes } from '../helpers/nodes';
import { send, startServer, type ServerProcess } from '../helpers/processes';

const { onPostgres, secretKey, nodeEnv } = multiNodeFile();

/** A JPEG of its own (the first bytes decide the type; test findings replace the analysis). */
const jpeg = () => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(256), Buffer.from([0xff, 0xd9])]);

async function post(port: number, urlPath: string, body: Buffer): Promise<number> {
  const res = await fetch(`http://127.0.0.1:${port}${urlPath}`, {
    method: 'POST',
    headers: { 'content-type': 'image/jpeg' },
    body: new Uint8Array(body),
  });
  await res.arrayBuffer();
  return res.status;
}

/** A signed media URL's path and query opened on `port`: its status, and the image when it opens. */
async function open(port: number, url: string): Promise<{ status: number; bytes?: Buffer }> {
  const { pathname, search } = new URL(url);
  const res = await fetch(`http://127.0.0.1:${port}${pathname}${search}`);
  const bytes = Buffer.from(await res.arrayBuffer());
  return res.status === 200 ? { status: 200, bytes } : { status: res.status };
}

/** The hosted page's SDK session: a challenge from one node, the session posted to another. */
async function ingest(challengePort: number, postPort: number, projectId: string): Promise<string> {
  const challenge = await send(challengePort, 'POST', '/ingest/challenge', { 'x-project-id': projectId });
  expect(challenge.status).toBe(200);
  const session = personSession();
  const posted = await send(
    postPort,
    'POST',
    '/ingest/session',
    { 'x-project-id': projectId, ...browserHeaders(session) },
    bind(session, challenge.body as { challenge: string; key: string }),
  );
  expect(posted.status).toBe(200);
  return session.session_id;
}

onPostgres('three nodes: a verification’s media', () => {
  let testDb: TestDb;
  let nodes: Nodes | undefined;
  afterAll(async () => {
    await nodes?.stop();
    await testDb?.destroy();
  });

  test('when an ID Check is captured on one node and completed on another, then its media URLs, signed by any node, open on every node, and after an erasure are gone everywhere', async () => {
    testDb = await makeTestDb();
    nodes = await startNodes(3, nodeEnv(testDb));
    const [a, b, c] = nodes.nodes.map((n) => n.port) as [number, number, number];
    const services = makeServices({ db: testDb.db, secretBox: makeSecretBox(secretKey, systemRandom) });
    const project = await services.projects.create({ name: 'media across nodes', test: true });
    const key = { 'x-api-key': project.api_key };

    const created = await send(a, 'POST', '/liveness/session', key, {
      type: 'id-check',
      account_id: 'test_verification_success',
    });
    expect(created.status).toBe(200);
    const { session_id: sessionId, url } = created.body as { session_id: string; url: string };
    const token = encodeURIComponent(new URL(url).searchParams.get('token')!);

    // Captured through node A only.
    const images = { selfie: jpeg(), id_front: jpeg(), id_back: jpeg() };
    for (const [kind, bytes] of Object.entries(images))
      expect(await post(a, `/liveness/${sessionId}/capture?token=${token}&kind=${kind}`, bytes)).toBe(200);
    // Completed through node B, which reads the captures A stored.
    const device = await ingest(c, b, project.project_id);
    const completed = await send(
      b,
      'POST',
      `/liveness/${sessionId}/complete?token=${token}&device_session_id=${device}`,
    );
    expect(completed.status).toBe(200);
    expect(completed.body).toMatchObject({ status: 'success' });

    const mediaIds = (await testDb
      .db('verification_captures')
      .where({ session_id: sessionId })
      .pluck('media_id')) as string[];
    expect(mediaIds).toHaveLength(3);
    expect(((await testDb.db('media').whereIn('id', mediaIds).pluck('id')) as string[]).sort()).toEqual(
      [...mediaIds].sort(),
    );
    // Nothing on any node's disk: the images are in the database.
    for (const dir of nodes.dataDirs) expect(fs.existsSync(path.join(dir, 'media'))).toBe(false);

    // Each node signs the result's URLs; every URL opens on every node (9 signer/server pairs).
    const urls: string[] = [];
    for (const signer of [a, b, c]) {
      const result = await send(signer, 'POST', '/liveness/verify-id', key, { session_id: sessionId });
      expect(result.status).toBe(200);
      const photos = (result.body as IdCheckResult).document_data.photo_urls;
      expect(Object.keys(photos).sort()).toEqual(['face', 'id_scan_back', 'id_scan_front']);
      urls.push(photos.id_scan_front, photos.id_scan_back, photos.face);
    }
    const expected = [images.id_front, images.id_back, images.selfie];
    for (const [i, signed] of urls.entries())
      for (const server of [a, b, c])
        expect(await open(server, signed)).toEqual({ status: 200, bytes: expected[i % 3] });

    // Erased through the balancer: gone on every node, and from the database.
    const erased = await send(nodes.balancer.port, 'DELETE', '/account/test_verification_success', key);
    expect(erased.status).toBe(200);
    for (const signed of urls) for (const server of [a, b, c]) expect((await open(server, signed)).status).toBe(403);
    expect(await testDb.db('media').whereIn('id', mediaIds)).toEqual([]);
    expect(await testDb.db('verification_captures').where({ session_id: sessionId })).toEqual([]);
  }, 180_000);
});

onPostgres('a node upgraded with images on its own disk', () => {
  let testDb: TestDb;
  let node: ServerProcess | undefined;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tg-node-'));
  afterAll(async () => {
    node?.child.kill('SIGTERM');
    await node?.exited;
    await testDb?.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('when it starts, then before serving it moves its captured images into the table and removes every file', async () => {
    testDb = await makeTestDb();
    const box = makeSecretBox(secretKey, systemRandom);
    const services = makeServices({ db: testDb.db, secretBox: box });
    const project = await services.projects.create({ name: 'before the table' });
    // As a node of the earlier version kept them: one sealed file an image in DATA_DIR/media.
    const disk = makeLocalMediaStore(path.join(dir, 'media'), box, systemRandom);
    const image = jpeg();
    const captured = await disk.put(image, 'image/jpeg');
    const erased = await disk.put(jpeg(), 'image/jpeg');
    const at = new Date(Date.now() - 60_000);
    const sessionId = systemRandom.uuid();
    const repo = services.repos.verifications;
    await repo.insert({
      id: sessionId,
      projectId: project.project_id,
      type: 'face-match',
      tokenHash: 'x',
      attempts: 0,
      state: 'open',
      createdAt: at,
      expiresAt: new Date(at.getTime() + 60_000),
    });
    await repo.addCapture({
      id: systemRandom.uuid(),
      sessionId,
      kind: 'selfie',
      mediaId: captured,
      contentType: 'image/jpeg',
      size: image.length,
      createdAt: at,
    });

    node = await startServer({ ...nodeEnv(testDb), DATA_DIR: dir });
    const isMoved = (l: Record<string, unknown>) => String(l.msg).startsWith("moved this node's media files");
    expect(node.lines.filter(isMoved)).toEqual([expect.objectContaining({ imported: 1, removed: 1 })]);
    expect(node.lines.findIndex(isMoved)).toBeLessThan(node.lines.findIndex((l) => l.msg === 'listening'));
    expect(fs.readdirSync(path.join(dir, 'media'))).toEqual([]);
    const table = makeDatabaseMediaStore({
      db: testDb.db,
      secretBox: box,
      random: systemRandom,
      clock: systemClock,
      secrets: makeInstallationSecrets(testDb.db),
    });
    expect(await table.get(captured)).toEqual({ bytes: image, contentType: 'image/jpeg' });
    expect(await table.get(erased)).toBeUndefined();
  }, 120_000);
});
