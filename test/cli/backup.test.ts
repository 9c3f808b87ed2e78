/**
 * `trustgate backup` and `trustgate restore` as real processes: a backup taken while the server
 * runs and writes, restored into an empty DATA_DIR, gives a server that answers the same API
 * calls the same way; a non-empty DATA_DIR and a foreign archive are refused. On SQLite the
 * database is in the archive; on PostgreSQL (DATABASE_URL) it goes docs/deploy.md's way, pg_dump
 * and pg_restore into a new database (with the captured media and their URL-signing key),
 * beside the archive's key and lists. Either way a captured image opens again after the restore.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import * as tar from 'tar-stream';
import { makeTestDb, type TestDb } from '../helpers/db';
import { personSession } from '../helpers/evaluation';
import { compileSources, killAll, runCli, send, startServer, type ServerProcess, until } from '../helpers/processes';
import type { Health } from '../../src/api-types';

let root: string;
/** PostgreSQL: the original database, and the one pg_restore fills. */
let originalDb: TestDb | undefined;
let restoredDb: TestDb | undefined;

beforeAll(async () => {
  compileSources();
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'tg-backup-'));
  if (process.env.DATABASE_URL) {
    originalDb = await makeTestDb({ migrate: false });
    restoredDb = await makeTestDb({ migrate: false });
  }
}, 120_000);
afterAll(async () => {
  killAll();
  fs.rmSync(root, { recursive: true, force: true });
  await originalDb?.destroy();
  await restoredDb?.destroy();
});

/** A server's or the CLI's environment on `dataDir` (and `db` on PostgreSQL), with the key in DATA_DIR/secret.key (none configured). */
const envOf = (dataDir: string, db?: TestDb): NodeJS.ProcessEnv => ({
  PATH: process.env.PATH,
  DATA_DIR: dataDir,
  ANALYSIS_ENGINE: 'off',
  DEMO: 'false',
  ...(db?.url ? { DATABASE_URL: db.url } : {}),
});

/** The calls compared before the backup and after the restore (each answer's status and body). */
async function answers(port: number, apiKey: string, sessions: string[]) {
  const h = { 'x-api-key': apiKey };
  const calls = [
    ...sessions.map((id) => ['GET', `/session/${id}`] as const),
    ['GET', '/account/alice'],
    ['GET', '/account/alice/sessions'],
    ['GET', '/account/bob/accounts-linked'],
    ['GET', '/account/nobody'],
    ['GET', '/list'],
    ['GET', '/list/vip'],
  ] as const;
  const out: Record<string, unknown> = {};
  for (const [method, p] of calls) {
    const r = await send(port, method, p, h);
    // Each answer has a request id of its own.
    const { request_id: _ignored, ...body } = r.body as Record<string, unknown>;
    out[`${method} ${p}`] = { status: r.status, body };
  }
  const health = await send(port, 'GET', '/healthz');
  out['GET /healthz ip_lists'] = (health.body as { data: { ip_lists: unknown } }).data.ip_lists;
  return out;
}

/** A Face Match session of `account` with its selfie uploaded as the hosted page does. */
async function captureFor(port: number, apiKey: string, account: string, image: Buffer): Promise<void> {
  const created = await send(
    port,
    'POST',
    '/liveness/session',
    { 'x-api-key': apiKey },
    {
      type: 'face-match',
      account_id: account,
    },
  );
  expect(created.status).toBe(200);
  const { session_id: id, url } = created.body as { session_id: string; url: string };
  const token = encodeURIComponent(new URL(url).searchParams.get('token')!);
  const res = await fetch(`http://127.0.0.1:${port}/liveness/${id}/capture?token=${token}&kind=selfie`, {
    method: 'POST',
    headers: { 'content-type': 'image/jpeg' },
    body: new Uint8Array(image),
  });
  expect(res.status).toBe(200);
}

/** The account's captured image, through the signed URL its verifications list gives. */
async function capturedImage(port: number, apiKey: string, account: string): Promise<Buffer> {
  const listed = await send(port, 'GET', `/account/${account}/verifications`, { 'x-api-key': apiKey });
  expect(listed.status).toBe(200);
  const { verifications } = listed.body as { verifications: { images: { url: string }[] }[] };
  const { pathname, search } = new URL(verifications[0]!.images[0]!.url);
  const res = await fetch(`http://127.0.0.1:${port}${pathname}${search}`);
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

async function stop(server: ServerProcess): Promise<void> {
  server.child.kill('SIGTERM');
  expect(await server.exited).toBe(0);
}

describe('trustgate backup and restore', () => {
  test('when a backup is taken while the server writes and restored into an empty DATA_DIR, then the restored server gives the same answers to the same calls', async () => {
    const original = path.join(root, 'original');
    // PostgreSQL makes no key: this is an installation that keeps its key in DATA_DIR/secret.key.
    if (originalDb) {
      fs.mkdirSync(original);
      fs.writeFileSync(path.join(original, 'secret.key'), `${randomBytes(32).toString('base64')}\n`, { mode: 0o600 });
    }
    const server = await startServer(envOf(original, originalDb));
    const { api_key: apiKey, project_id: projectId } = JSON.parse(
      fs.readFileSync(path.join(original, 'default-project.json'), 'utf8'),
    ) as { api_key: string; project_id: string };
    const h = { 'x-api-key': apiKey };
    const sessions: string[] = [];
    for (const id of ['alice', 'bob']) {
      const session = personSession();
      expect((await send(server.port, 'POST', '/ingest/session', { 'x-project-id': projectId }, session)).status).toBe(
        200,
      );
      const signedIn = await send(server.port, 'POST', '/session/authenticate', h, {
        session_id: session.session_id,
        account: { id, email: `${id}@example.com` },
      });
      expect(signedIn.status).toBe(200);
      sessions.push(session.session_id);
    }
    expect((await send(server.port, 'POST', '/list/vip', h, { list_description: 'Our best customers' })).status).toBe(
      200,
    );
    expect((await send(server.port, 'POST', '/list/vip/account/alice', h)).status).toBeLessThan(300);
    expect((await runCli(['iplist', 'add', 'fraud', '203.0.113.7'], envOf(original, originalDb))).code).toBe(0);
    // A verification's capture, through the API: a file on SQLite, a row of the media table on PostgreSQL.
    const selfie = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(128)]);
    await captureFor(server.port, apiKey, 'alice', selfie);
    // A file in the media folder as the SQLite store keeps one (the archive copies files as they are).
    fs.mkdirSync(path.join(original, 'media'), { recursive: true });
    fs.writeFileSync(path.join(original, 'media', 'capture-1.bin'), Buffer.from('sealed capture bytes'));
    // The server reloads the list file within seconds.
    const fraudEntries = async (port: number) =>
      ((await send(port, 'GET', '/healthz')).body as Health).data?.ip_lists.find((l) => l.list === 'fraud')?.entries;
    await until(async () => (await fraudEntries(server.port)) === 1, 'the server to reload the fraud list');
    const before = await answers(server.port, apiKey, sessions);
    expect(before['GET /account/alice']).toMatchObject({ status: 200 });

    // The server keeps writing while the backup is taken.
    let writing = true;
    let writes = 0;
    const writer = (async () => {
      while (writing) {
        await send(server.port, 'POST', '/ingest/session', { 'x-project-id': projectId }, personSession());
        writes++;
      }
    })();
    const archive = path.join(root, 'trustgate-backup.tgz');
    const made = await runCli(['backup', archive], envOf(original, originalDb));
    writing = false;
    await writer;
    expect(made.stderr).not.toContain('trustgate:');
    expect(made.code).toBe(0);
    expect(writes).toBeGreaterThan(0);
    expect(made.stdout).toContain(`backup written to ${archive}`);
    if (originalDb) {
      expect(made.stdout).toContain('database: not included (PostgreSQL: back it up with pg_dump');
      expect(made.stdout).toContain('media: in the database (table media), backed up by pg_dump');
      // docs/deploy.md's route: pg_dump while the server runs, pg_restore into a new database.
      const dump = path.join(root, 'trustgate.dump');
      execFileSync('pg_dump', ['--format=custom', `--file=${dump}`, '--no-owner', originalDb.url!]);
      execFileSync('pg_restore', ['--no-owner', `--dbname=${restoredDb!.url!}`, dump]);
    } else {
      expect(made.stdout).toMatch(/database: a snapshot of the SQLite database \(migrations up to 0\d+_\w+\)/);
    }
    // The file written above, and on SQLite the capture's own (PostgreSQL keeps it in the database).
    expect(made.stdout).toContain(`media files: ${originalDb ? 1 : 2}`);
    expect(fs.statSync(archive).mode & 0o777).toBe(0o600);
    await stop(server);

    const restored = path.join(root, 'restored');
    fs.mkdirSync(restored);
    const back = await runCli(['restore', archive], envOf(restored, restoredDb));
    expect(back.stderr).not.toContain('trustgate:');
    expect(back.code).toBe(0);
    expect(back.stdout).toContain(`secret key: ${path.join(restored, 'secret.key')}`);
    expect(fs.readFileSync(path.join(restored, 'secret.key'))).toEqual(
      fs.readFileSync(path.join(original, 'secret.key')),
    );
    expect(fs.readFileSync(path.join(restored, 'media', 'capture-1.bin'), 'utf8')).toBe('sealed capture bytes');
    // The IP lists: SQLite's files are in the archive; PostgreSQL's are in the database, so in the dump.
    if (!originalDb?.url)
      expect(fs.readFileSync(path.join(restored, 'ip-lists', 'fraud.txt'), 'utf8')).toContain('203.0.113.7');

    const again = await startServer(envOf(restored, restoredDb));
    try {
      expect(await answers(again.port, apiKey, sessions)).toEqual(before);
      expect(await fraudEntries(again.port)).toBe(1);
      // The captured image is back (PostgreSQL: in the dump, with its URL-signing key), and opens.
      expect(await capturedImage(again.port, apiKey, 'alice')).toEqual(selfie);
      // The same projects, as the CLI sees them.
      const listed = await runCli(['project', 'list', '--json'], envOf(restored, restoredDb));
      expect(listed.code).toBe(0);
      expect((JSON.parse(listed.stdout) as { project_id: string }[]).map((p) => p.project_id)).toContain(projectId);
    } finally {
      await stop(again);
    }

    // Into a folder that is not empty (it now holds the restored installation): refused, nothing touched.
    const refused = await runCli(['restore', archive], envOf(restored, restoredDb));
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`DATA_DIR ${restored} is not empty`);
    expect(fs.readFileSync(path.join(restored, 'secret.key'))).toEqual(
      fs.readFileSync(path.join(original, 'secret.key')),
    );
  }, 180_000);

  test('when the archive is not a Trustgate backup, then restore refuses it and leaves DATA_DIR empty', async () => {
    const foreign = path.join(root, 'foreign.tgz');
    const pack = tar.pack();
    pack.entry({ name: 'etc/passwd' }, 'root:x:0:0');
    pack.finalize();
    const chunks: Buffer[] = [];
    for await (const c of pack.pipe(zlib.createGzip())) chunks.push(c as Buffer);
    fs.writeFileSync(foreign, Buffer.concat(chunks));
    const target = path.join(root, 'empty');
    const r = await runCli(['restore', foreign], envOf(target));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('the archive does not start with manifest.json: not a Trustgate backup');
    expect(fs.readdirSync(target)).toEqual([]);
  }, 60_000);

  test('when the backup file already exists, then backup refuses to overwrite it', async () => {
    const existing = path.join(root, 'existing.tgz');
    fs.writeFileSync(existing, 'keep me');
    const r = await runCli(['backup', existing], envOf(path.join(root, 'original'), originalDb));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${existing} exists: name a new file`);
    expect(fs.readFileSync(existing, 'utf8')).toBe('keep me');
  }, 60_000);
});
