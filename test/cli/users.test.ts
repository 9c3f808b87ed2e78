/** `trustgate user add|list|disable` and `trustgate project add-key --read-only`, in-process against a real database. */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { cli } from '../../src/cli/main';
import { makeReadSecret } from '../../src/cli/users';
import { verifyPassword } from '../../src/security/passwords';
import { makeTestDb, type TestDb } from '../helpers/db';

let testDb: TestDb;
let dataDir: string;
const SECRET_KEY = randomBytes(32).toString('base64');

beforeAll(async () => {
  testDb = await makeTestDb();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tg-cli-users-'));
});
afterAll(async () => {
  await testDb.destroy();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const PASSWORD = 'a long enough passphrase';

/** Runs the command in-process; `password` is what the prompt reads (never an argument). */
async function trustgate(args: string[], password = PASSWORD) {
  const env: NodeJS.ProcessEnv = { DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
  // PostgreSQL: every node of the database is given the same key (none is made).
  if (testDb.url) Object.assign(env, { DATABASE_URL: testDb.url, TRUSTGATE_SECRET_KEY: SECRET_KEY });
  else env.DATA_DIR = path.dirname(testDb.sqliteFile!);
  let stdout = '';
  let stderr = '';
  const prompts: string[] = [];
  const code = await cli(args, {
    env,
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
    readSecret: async (prompt) => {
      prompts.push(prompt);
      return password;
    },
  });
  return { stdout, stderr, code, prompts };
}

async function newProject(): Promise<string> {
  return JSON.parse((await trustgate(['project', 'create', '--name', 'Operators', '--json'])).stdout).project_id;
}

describe('trustgate user', () => {
  it('when an operator is added, then its password is read from the prompt and stored only as an argon2id hash', async () => {
    const projectId = await newProject();
    const r = await trustgate([
      'user',
      'add',
      '--project',
      projectId,
      '--email',
      'Ana@Example.com',
      '--role',
      'analyst',
      '--json',
    ]);
    expect(r.code).toBe(0);
    expect(r.prompts).toEqual(['password for Ana@Example.com: ']);
    const added = JSON.parse(r.stdout);
    expect(added).toMatchObject({ project_id: projectId, email: 'ana@example.com', role: 'analyst' });
    const row = await testDb.db('operators').where({ id: added.id }).first();
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    expect(JSON.stringify(row) + r.stdout + r.stderr).not.toContain(PASSWORD);

    const list = await trustgate(['user', 'list', '--project', projectId, '--json']);
    expect(JSON.parse(list.stdout)).toEqual([{ ...added, disabled: false }]);
    expect((await trustgate(['user', 'disable', 'ana@example.com'])).stdout).toMatch(/disabled/);
    expect(JSON.parse((await trustgate(['user', 'list', '--project', projectId, '--json'])).stdout)[0].disabled).toBe(
      true,
    );
  });

  it('when an operator is added --sso-only, then no password is asked and none signs it in (an unusable hash is stored)', async () => {
    const projectId = await newProject();
    const r = await trustgate(
      ['user', 'add', '--project', projectId, '--email', 'sso@example.com', '--role', 'viewer', '--sso-only', '--json'],
      'never asked',
    );
    expect(r.code).toBe(0);
    expect(r.prompts).toEqual([]);
    const row = await testDb.db('operators').where({ email: 'sso@example.com' }).first();
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    expect(await verifyPassword(row.password_hash, 'never asked')).toBe(false);
    expect(await verifyPassword(row.password_hash, '')).toBe(false);
  });

  it('when the role, the email or the password is not acceptable, or the email is taken, then exit 1 and nothing is stored', async () => {
    const projectId = await newProject();
    const add = (email: string, role: string, password = PASSWORD) =>
      trustgate(['user', 'add', '--project', projectId, '--email', email, '--role', role], password);
    const cases = [
      [await add('bo@example.com', 'owner'), /role "owner" is not one of viewer, analyst, admin/],
      [await add('not-an-email', 'viewer'), /not an email address/],
      [await add('bo@example.com', 'viewer', 'short'), /at least 12 characters/],
    ] as const;
    for (const [r, message] of cases) {
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(message);
    }
    expect(await testDb.db('operators').where({ project_id: projectId })).toEqual([]);
    expect((await add('bo@example.com', 'viewer')).code).toBe(0);
    const taken = await add('BO@example.com', 'admin');
    expect(taken.code).toBe(1);
    expect(taken.stderr).toMatch(/exists/);
  });

  it('when arguments are missing, then usage and exit code 2, and no password is asked', async () => {
    const r = await trustgate(['user', 'add', '--email', 'x@example.com']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--project, --email and --role/);
    expect(r.prompts).toEqual([]);
  });
});

describe('trustgate project add-key', () => {
  it('when a read-only key is added, then it is stored with its scope beside the full key, and listed as read-only', async () => {
    const projectId = await newProject();
    const r = await trustgate(['project', 'add-key', projectId, '--read-only', '--json']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ project_id: projectId, scope: 'read_only' });
    const keys = await testDb.db('api_keys').where({ project_id: projectId }).orderBy('created_at');
    expect(keys.map((k: { scope: string }) => k.scope).sort()).toEqual(['full', 'read_only']);
    expect(JSON.stringify(keys)).not.toContain(out.api_key);
    const list = JSON.parse((await trustgate(['project', 'list', '--json'])).stdout) as {
      project_id: string;
      api_keys: string[];
    }[];
    expect(list.find((p) => p.project_id === projectId)!.api_keys).toEqual(
      expect.arrayContaining([`${out.api_key.slice(0, 9)}… (read-only)`]),
    );
  });
});

describe('reading the password', () => {
  it('when stdin is a pipe, then its first line is the password and no prompt is written', async () => {
    const stdin = new PassThrough();
    const prompt: string[] = [];
    const read = makeReadSecret({ stdin, prompt: { write: (t: string) => prompt.push(t) } });
    const reading = read('password: ');
    stdin.write('first line secret\nsecond line\n');
    expect(await reading).toBe('first line secret');
    expect(prompt).toEqual([]);
  });

  it('when stdin is a terminal, then the prompt is shown, echo is off while typing, and backspace erases', async () => {
    const stdin = Object.assign(new PassThrough(), { isTTY: true, modes: [] as boolean[] });
    const setRawMode = (raw: boolean) => stdin.modes.push(raw);
    const prompt: string[] = [];
    const read = makeReadSecret({
      stdin: Object.assign(stdin, { setRawMode }),
      prompt: { write: (t: string) => prompt.push(t) },
    });
    const reading = read('password: ');
    stdin.write('pass\u007fsword\r');
    expect(await reading).toBe('password');
    expect(stdin.modes).toEqual([true, false]);
    expect(prompt).toEqual(['password: ', '\n']);
  });
});
