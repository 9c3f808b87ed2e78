/**
 * `trustgate secret-key reseal`, in-process against a real database: after a rotation, every
 * value a previous key sealed (each sealed column, the media folder's files) is sealed with the
 * new key, a second run finds nothing, and the new key alone then opens everything.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cli } from '../../src/cli/main';
import { systemRandom } from '../../src/clock';
import { makeSecretBox } from '../../src/security/secrets';
import { resealAll, SEALED_COLUMNS } from '../../src/storage/reseal';
import { makeTestDb, type TestDb } from '../helpers/db';

const [oldKey, newKey, foreignKey] = [randomBytes(32), randomBytes(32), randomBytes(32)];
const oldBox = makeSecretBox(oldKey, systemRandom);
const newAlone = makeSecretBox(newKey, systemRandom);
const rotating = {
  TRUSTGATE_SECRET_KEY: newKey.toString('base64'),
  TRUSTGATE_PREVIOUS_SECRET_KEYS: oldKey.toString('base64'),
};

let testDb: TestDb;
let dataDir: string;
beforeAll(async () => {
  testDb = await makeTestDb();
  // SQLite: the CLI opens DATA_DIR/trustgate.sqlite, which is the test's own file.
  dataDir = testDb.sqliteFile ? path.dirname(testDb.sqliteFile) : fs.mkdtempSync(path.join(os.tmpdir(), 'tg-reseal-'));
});
afterAll(async () => {
  await testDb.destroy();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function trustgate(args: string[], keys: NodeJS.ProcessEnv) {
  const env: NodeJS.ProcessEnv = { DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...keys };
  if (testDb.url) env.DATABASE_URL = testDb.url;
  let stdout = '';
  let stderr = '';
  const code = await cli(args, { env, stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}

/** A verification of the project with its result, its enrolled face and its queued webhook, sealed by `box`. */
async function sealedVerification(projectId: string, box = oldBox): Promise<void> {
  const id = randomUUID();
  const at = Date.now();
  await testDb.db('verification_sessions').insert({
    id,
    project_id: projectId,
    type: 'face_match',
    token_hash: 'f'.repeat(64),
    state: 'ended',
    outcome: 'success',
    result: box.encrypt('{"face_match":true}'),
    created_at: at,
    expires_at: at,
  });
  await testDb
    .db('verification_faces')
    .insert({ session_id: id, project_id: projectId, embedding: box.encrypt('AAAA'), created_at: at });
  await testDb.db('webhooks').insert({
    request_id: randomUUID(),
    project_id: projectId,
    session_id: id,
    event_type: 'face_match.completed',
    body: box.encrypt('{"event":"x"}'),
    status: 'pending',
    run_at: at,
    created_at: at,
  });
  // An image as PostgreSQL's media store keeps it (the table is there on both engines).
  await testDb.db('media').insert({ id: randomUUID(), sealed: box.encrypt('image/jpeg\n/9j/'), created_at: at });
}

const mediaDir = () => path.join(dataDir, 'media');

/** Every sealed value of the database and of the media folder. */
async function everySealed(): Promise<string[]> {
  const values: string[] = [];
  for (const { table, column } of SEALED_COLUMNS)
    for (const row of await testDb.db(table).whereNotNull(column).select(column)) values.push(row[column] as string);
  for (const name of fs.readdirSync(mediaDir()))
    values.push(fs.readFileSync(path.join(mediaDir(), name), 'utf8').trim());
  return values;
}

describe('trustgate secret-key reseal', () => {
  test('when a previous key sealed values everywhere, then each is sealed with the current key, once, and the new key alone opens them', async () => {
    const oldEnv = { TRUSTGATE_SECRET_KEY: oldKey.toString('base64') };
    const created = await trustgate(['project', 'create', '--name', 'Shop', '--json'], oldEnv);
    expect(created.stderr).not.toContain('trustgate:');
    const projectId = (JSON.parse(created.stdout) as { project_id: string }).project_id;
    expect((await trustgate(['project', 'rotate-webhook-secret', projectId], oldEnv)).code).toBe(0);
    await sealedVerification(projectId);
    fs.mkdirSync(mediaDir(), { recursive: true });
    fs.writeFileSync(path.join(mediaDir(), `${randomUUID()}.bin`), oldBox.encrypt('image/jpeg\n/9j/'));
    fs.writeFileSync(path.join(mediaDir(), 'url-signing.key'), `${oldBox.encrypt('c2lnbmluZw==')}\n`);
    const before = await everySealed();
    expect(before).toHaveLength(9);
    for (const sealed of before) expect(() => newAlone.decrypt(sealed)).toThrow();

    const r = await trustgate(['secret-key', 'reseal'], rotating);
    expect(r.stderr).not.toContain('trustgate:');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('projects.webhook_secret_encrypted: 1 resealed of 1\n');
    expect(r.stdout).toContain('projects.webhook_secret_previous_encrypted: 1 resealed of 1\n');
    expect(r.stdout).toContain('verification_sessions.result: 1 resealed of 1\n');
    expect(r.stdout).toContain('verification_faces.embedding: 1 resealed of 1\n');
    expect(r.stdout).toContain('webhooks.body: 1 resealed of 1\n');
    expect(r.stdout).toContain('media.sealed: 1 resealed of 1\n');
    // The digest key was sealed again by the start itself.
    expect(r.stdout).toContain('installation_secrets.sealed: 0 resealed of 1\n');
    expect(r.stdout).toContain(`${mediaDir()}: 2 resealed of 2\n`);
    expect(r.stdout).toContain('resealed 8 values with the current key\n');
    const after = await everySealed();
    expect(after.map((sealed) => newAlone.decrypt(sealed))).toEqual(before.map((sealed) => oldBox.decrypt(sealed)));
    expect(fs.readFileSync(path.join(mediaDir(), 'url-signing.key'), 'utf8')).toMatch(/\n$/);

    const again = await trustgate(['secret-key', 'reseal'], rotating);
    expect(again.code).toBe(0);
    expect(again.stdout).not.toMatch(/: [1-9]\d* resealed/);
    expect(again.stdout).toContain('nothing left sealed with a previous key');
    // Without the previous key now, a start opens the database.
    const alone = await trustgate(['project', 'list'], { TRUSTGATE_SECRET_KEY: newKey.toString('base64') });
    expect(alone.code).toBe(0);
  });

  test('when a value opens with no key of the node, then it is left as it is and the command fails, saying what to do', async () => {
    const projectId = (await testDb.db('projects').first('id')).id as string;
    await sealedVerification(projectId, makeSecretBox(foreignKey, systemRandom));
    const r = await trustgate(['secret-key', 'reseal'], rotating);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('verification_sessions.result: 0 resealed of 2, 1 that no key here opens');
    expect(r.stdout).toContain('4 values open with neither TRUSTGATE_SECRET_KEY nor TRUSTGATE_PREVIOUS_SECRET_KEYS');
    await testDb.db('webhooks').delete();
    await testDb.db('media').delete();
    await testDb.db('verification_sessions').delete();
  });

  test('when the values are more than a batch, then every batch is walked', async () => {
    const ids = await Promise.all(
      [1, 2, 3, 4, 5].map(async (n) => {
        const r = await trustgate(['project', 'create', '--name', `P${n}`, '--json'], rotating);
        return (JSON.parse(r.stdout) as { project_id: string }).project_id;
      }),
    );
    await testDb
      .db('projects')
      .whereIn('id', ids)
      .update({ webhook_secret_encrypted: oldBox.encrypt('whsec_x') });
    const box = makeSecretBox(newKey, systemRandom, { previousKeys: [oldKey] });
    const counts = await resealAll({ db: testDb.db, box }, { batch: 2 });
    expect(counts.find((c) => c.place === 'projects.webhook_secret_encrypted')).toMatchObject({
      resealed: 5,
      unopened: 0,
    });
    const secrets = await testDb.db('projects').select('webhook_secret_encrypted');
    for (const row of secrets) expect(() => newAlone.decrypt(row.webhook_secret_encrypted as string)).not.toThrow();
  });
});
