/**
 * Start-up with the secret key on a real database (either engine): the database's digest key,
 * stored by the first start, is what every later start's key must open; a rotation's previous
 * key keeps opening what it sealed, and the first start that holds the new key seals the
 * digest key again with it, so that digests stay the same across the rotation.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cli } from '../../src/cli/main';
import { makeRuntime, type Runtime } from '../../src/composition';
import { loadConfig } from '../../src/config';
import { makeLogger } from '../../src/logger';
import { DIGEST_KEY, keyMismatch } from '../../src/security/installation-keys';
import { keyId, SECRET_KEY_REQUIRED } from '../../src/security/secrets';
import { makeTestDb, type TestDb } from '../helpers/db';

const [oldKey, newKey] = [randomBytes(32).toString('base64'), randomBytes(32).toString('base64')];
const idOf = (key: string) => keyId(Buffer.from(key, 'base64'));

let testDb: TestDb;
let dataDir: string;
const opened: Runtime[] = [];
beforeEach(async () => {
  testDb = await makeTestDb();
  // SQLite: the runtime opens DATA_DIR/trustgate.sqlite, which is the test's own file.
  dataDir = testDb.sqliteFile ? path.dirname(testDb.sqliteFile) : fs.mkdtempSync(path.join(os.tmpdir(), 'tg-key-'));
});
afterEach(async () => {
  for (const runtime of opened.splice(0)) await runtime.close();
  await testDb.destroy();
  if (testDb.url) fs.rmSync(dataDir, { recursive: true, force: true });
});

/** A node's settings: these besides the database's. */
const envOf = (env: NodeJS.ProcessEnv): NodeJS.ProcessEnv => ({
  DATA_DIR: dataDir,
  DEMO: 'false',
  ANALYSIS_ENGINE: 'off',
  ...(testDb.url ? { DATABASE_URL: testDb.url } : {}),
  ...env,
});

/** A node's start (as the server's and the CLI's) with these settings besides the database's. */
async function start(env: NodeJS.ProcessEnv): Promise<Runtime> {
  const config = loadConfig(envOf(env));
  const runtime = await makeRuntime(config, makeLogger('silent'), { ipData: false, analysis: false, telemetry: false });
  opened.push(runtime);
  return runtime;
}

const stop = async (runtime: Runtime) => {
  opened.splice(opened.indexOf(runtime), 1);
  await runtime.close();
};

const storedDigestKey = async () =>
  (await testDb.db('installation_secrets').where({ name: DIGEST_KEY }).first('sealed'))?.sealed as string;

describe('the secret key at start-up', () => {
  test('when a node starts with another key than the first, then it refuses, saying the key cannot open the database', async () => {
    await stop(await start({ TRUSTGATE_SECRET_KEY: oldKey }));
    expect(await storedDigestKey()).toMatch(new RegExp(`^v2\\.${idOf(oldKey)}\\.`));
    await expect(start({ TRUSTGATE_SECRET_KEY: newKey })).rejects.toThrow(keyMismatch('TRUSTGATE_SECRET_KEY'));
    // The same key starts again.
    await stop(await start({ TRUSTGATE_SECRET_KEY: oldKey }));
  });

  test('when the key is rotated, then the previous key opens what it sealed until the reseal, the digest key moves to the new key, and digests stay', async () => {
    const before = await start({ TRUSTGATE_SECRET_KEY: oldKey });
    const project = await before.services.projects.create({ name: 'Shop' });
    const digest = before.secretBox.digest('number|US|CA|D1234567');
    await stop(before);

    const rotating = await start({ TRUSTGATE_SECRET_KEY: newKey, TRUSTGATE_PREVIOUS_SECRET_KEYS: oldKey });
    expect(await storedDigestKey()).toMatch(new RegExp(`^v2\\.${idOf(newKey)}\\.`));
    const { webhookSecretEncrypted } = (await rotating.services.repos.projects.findById(project.project_id))!;
    expect(webhookSecretEncrypted).toMatch(new RegExp(`^v2\\.${idOf(oldKey)}\\.`));
    expect(rotating.secretBox.decrypt(webhookSecretEncrypted)).toBe(project.webhook_secret);
    expect(rotating.secretBox.digest('number|US|CA|D1234567')).toBe(digest);
    await stop(rotating);

    // The new key alone starts (it opens the digest key), and opens all it sealed, but not yet what the old one did.
    const alone = await start({ TRUSTGATE_SECRET_KEY: newKey });
    expect(alone.secretBox.digest('number|US|CA|D1234567')).toBe(digest);
    expect(() => alone.secretBox.decrypt(webhookSecretEncrypted)).toThrow(`key id ${idOf(oldKey)}`);
    await stop(alone);
    // The old key alone no longer opens the database.
    await expect(start({ TRUSTGATE_SECRET_KEY: oldKey })).rejects.toThrow(keyMismatch('TRUSTGATE_SECRET_KEY'));

    // After the reseal (as the operator runs it, with both keys), the new key alone reads everything.
    const resealed = await cli(['secret-key', 'reseal'], {
      env: { ...envOf({ TRUSTGATE_SECRET_KEY: newKey, TRUSTGATE_PREVIOUS_SECRET_KEYS: oldKey }), LOG_LEVEL: 'silent' },
      stdout: () => {},
      stderr: () => {},
    });
    expect(resealed).toBe(0);
    const after = await start({ TRUSTGATE_SECRET_KEY: newKey });
    const moved = (await after.services.repos.projects.findById(project.project_id))!.webhookSecretEncrypted;
    expect(moved).toMatch(new RegExp(`^v2\\.${idOf(newKey)}\\.`));
    expect(after.secretBox.decrypt(moved)).toBe(project.webhook_secret);
    expect(after.secretBox.digest('number|US|CA|D1234567')).toBe(digest);
  });

  test('when DATA_DIR/secret.key holds the key, then it is used on either engine, and a foreign one is named in the refusal', async () => {
    fs.writeFileSync(path.join(dataDir, 'secret.key'), `${oldKey}\n`, { mode: 0o600 });
    await stop(await start({}));
    fs.writeFileSync(path.join(dataDir, 'secret.key'), `${newKey}\n`, { mode: 0o600 });
    await expect(start({})).rejects.toThrow(keyMismatch(path.join(dataDir, 'secret.key')));
  });
});

(process.env.DATABASE_URL ? describe : describe.skip)('the secret key with PostgreSQL', () => {
  test('when neither TRUSTGATE_SECRET_KEY nor DATA_DIR/secret.key is there, then the start refuses naming the setting, and makes no key', async () => {
    await expect(start({})).rejects.toThrow(SECRET_KEY_REQUIRED);
    expect(fs.existsSync(path.join(dataDir, 'secret.key'))).toBe(false);
    expect(await storedDigestKey()).toBeUndefined();
  });
});

(process.env.DATABASE_URL ? describe.skip : describe)('the secret key with SQLite', () => {
  test('when no key is given, then one is made into DATA_DIR on the first start and used by the next', async () => {
    await stop(await start({}));
    expect(fs.existsSync(path.join(dataDir, 'secret.key'))).toBe(true);
    await stop(await start({}));
  });
});
