/** The trustgate command, run as a real process against a real database. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cli } from '../../src/cli/main';
import { makeTestDb, type TestDb } from '../helpers/db';


let testDb: TestDb;
let dataDir: string;

beforeAll(async () => {
  testDb = await makeTestDb();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tg-cli-'));
});
afterAll(async () => {
  await testDb.destroy();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Runs the command in-process with its own environment and captured output. */
async function trustgate(...args: string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  const env: NodeJS.ProcessEnv = { DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
  if (testDb.url) env.DATABASE_URL = testDb.url;
  // SQLite: the CLI opens DATA_DIR/trustgate.sqlite, which is the test's own file.
  else env.DATA_DIR = path.dirname(testDb.sqliteFile!);
  let stdout = '';
  let stderr = '';
  const code = await cli(args, { env, stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { stdout, stderr, code };
}

describe('trustgate project', () => {
  it('when a project is created with --json, then it prints its id, key and secret, and the key is stored hashed', async () => {
    const r = await trustgate('project', 'create', '--name', 'Shop', '--webhook-url', 'https://hooks.shop.test/tg', '--groups', '--json');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ name: 'Shop', webhook_url: 'https://hooks.shop.test/tg', groups_enabled: true });
    expect(out.api_key).toMatch(/^tg_/);
    expect(out.webhook_secret).toMatch(/^whsec_/);
    const keys = await testDb.db('api_keys').where({ project_id: out.project_id });
    expect(keys).toHaveLength(1);
    expect(JSON.stringify(keys)).not.toContain(out.api_key);
    const project = await testDb.db('projects').where({ id: out.project_id }).first();
    expect(project.webhook_secret_encrypted).not.toContain(out.webhook_secret);
  });

  it('when projects are listed, rotated and re-pointed, then each change shows', async () => {
    const created = JSON.parse((await trustgate('project', 'create', '--name', 'Blog', '--json')).stdout);
    const rotated = JSON.parse((await trustgate('project', 'rotate-key', created.project_id, '--json')).stdout);
    expect(rotated.api_key).not.toBe(created.api_key);
    expect((await trustgate('project', 'set-webhook', created.project_id, 'https://hooks.blog.test/x')).code).toBe(0);
    const list = JSON.parse((await trustgate('project', 'list', '--json')).stdout) as { project_id: string; webhook_url: string; api_keys: string[] }[];
    const blog = list.find((p) => p.project_id === created.project_id)!;
    expect(blog.webhook_url).toBe('https://hooks.blog.test/x');
    expect(blog.api_keys).toEqual([rotated.api_key.slice(0, 9) + '…']);
  });

  it('when the arguments are wrong, then usage and exit code 2; an unknown project, exit code 1', async () => {
    const usage = await trustgate('project', 'create');
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/--name/);
    const missing = await trustgate('project', 'rotate-key', '00000000-0000-4000-8000-000000000000');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/not found/);
  });
});
