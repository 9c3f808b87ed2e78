/**
 * `trustgate backup` and `trustgate restore` as real processes, on SQLite: a backup taken while
 * the server runs and writes, restored into an empty DATA_DIR, gives a server that answers the
 * same API calls the same way; a non-empty DATA_DIR and a foreign archive are refused.
 * (On PostgreSQL the database goes through pg_dump, not the archive: README.)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import * as tar from 'tar-stream';
import { personSession } from '../helpers/evaluation';
import {
  compileSources,
  killAll,
  removeCompiled,
  runCli,
  send,
  startServer,
  type ServerProcess,
  until,
} from '../helpers/processes';
import type { Health } from '../../src/api-types';

const onSqlite = !process.env.DATABASE_URL;
let root: string;

beforeAll(() => {
  if (!onSqlite) return;
  compileSources();
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'tg-backup-'));
}, 120_000);
afterAll(() => {
  killAll();
  if (!onSqlite) return;
  removeCompiled();
  fs.rmSync(root, { recursive: true, force: true });
});

/** A server's or the CLI's environment on `dataDir`, with the key in DATA_DIR/secret.key (none configured). */
const envOf = (dataDir: string): NodeJS.ProcessEnv => ({
  PATH: process.env.PATH,
  DATA_DIR: dataDir,
  ANALYSIS_ENGINE: 'off',
  DEMO: 'false',
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

async function stop(server: ServerProcess): Promise<void> {
  server.child.kill('SIGTERM');
  expect(await server.exited).toBe(0);
}

(onSqlite ? describe : describe.skip)('trustgate backup and restore', () => {
  test('when a backup is taken while the server writes and restored into an empty DATA_DIR, then the restored server gives the same answers to the same calls', async () => {
    const original = path.join(root, 'original');
    const server = await startServer(envOf(original));
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
    expect((await runCli(['iplist', 'add', 'fraud', '203.0.113.7'], envOf(original))).code).toBe(0);
    // A capture as the media store keeps it (sealed bytes; the archive copies files as they are).
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
    const made = await runCli(['backup', archive], envOf(original));
    writing = false;
    await writer;
    expect(made.stderr).not.toContain('trustgate:');
    expect(made.code).toBe(0);
    expect(writes).toBeGreaterThan(0);
    expect(made.stdout).toContain(`backup written to ${archive}`);
    expect(made.stdout).toMatch(/database: a snapshot of the SQLite database \(migrations up to 0\d+_\w+\)/);
    expect(made.stdout).toContain('media files: 1');
    expect(fs.statSync(archive).mode & 0o777).toBe(0o600);
    await stop(server);

    const restored = path.join(root, 'restored');
    fs.mkdirSync(restored);
    const back = await runCli(['restore', archive], envOf(restored));
    expect(back.stderr).not.toContain('trustgate:');
    expect(back.code).toBe(0);
    expect(back.stdout).toContain(`secret key: ${path.join(restored, 'secret.key')}`);
    expect(fs.readFileSync(path.join(restored, 'secret.key'))).toEqual(
      fs.readFileSync(path.join(original, 'secret.key')),
    );
    expect(fs.readFileSync(path.join(restored, 'media', 'capture-1.bin'), 'utf8')).toBe('sealed capture bytes');
    expect(fs.readFileSync(path.join(restored, 'ip-lists', 'fraud.txt'), 'utf8')).toContain('203.0.113.7');

    const again = await startServer(envOf(restored));
    try {
      expect(await answers(again.port, apiKey, sessions)).toEqual(before);
      // The API key and webhook secret of the original: the same project, its secret readable with the restored key.
      const listed = await runCli(['project', 'list', '--json'], envOf(restored));
      expect(listed.code).toBe(0);
    } finally {
      await stop(again);
    }

    // Into a folder that is not empty (it now holds the restored installation): refused, nothing touched.
    const refused = await runCli(['restore', archive], envOf(restored));
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
    const r = await runCli(['backup', existing], envOf(path.join(root, 'original')));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${existing} exists: name a new file`);
    expect(fs.readFileSync(existing, 'utf8')).toBe('keep me');
  }, 60_000);
});
