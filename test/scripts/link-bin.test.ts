/**
 * scripts/link-bin.js, `npm install`'s postinstall, and why it exists: `npx trustgate` in a
 * checkout runs the command from node_modules/.bin directly, while a `trustgate` bin declared by
 * the checkout's own package.json makes npx install the checkout into its cache first (which read
 * the whole dependency tree: the first `npx trustgate` of a fresh clone took 25 s). Run with the
 * real npm, offline, on a small checkout made here, with an npm cache of the test's own.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { PACKAGE_ROOT } from '../../src/spec';

const run = promisify(execFile);

let tmp: string;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tg-link-bin-'));
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** A checkout with a bin/trustgate.js that prints what it was given, and the repository's link-bin.js. */
function checkout(manifest: object): string {
  const dir = path.join(tmp, 'checkout');
  fs.mkdirSync(path.join(dir, 'bin'), { recursive: true });
  fs.mkdirSync(path.join(dir, 'scripts'));
  fs.writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify({ name: 'trustgate', version: '0.0.0', ...manifest }),
  );
  fs.writeFileSync(
    path.join(dir, 'bin', 'trustgate.js'),
    "#!/usr/bin/env node\nprocess.stdout.write('ran ' + process.argv.slice(2).join(' '));\n",
    { mode: 0o755 },
  );
  fs.copyFileSync(path.join(PACKAGE_ROOT, 'scripts', 'link-bin.js'), path.join(dir, 'scripts', 'link-bin.js'));
  return dir;
}

/** `npx trustgate --help` in `dir`, offline, with the test's npm cache; what it printed and what it left in the npx cache. */
async function npxTrustgate(dir: string) {
  const cache = path.join(tmp, 'npm-cache');
  const env = { PATH: process.env.PATH, HOME: tmp, npm_config_cache: cache, npm_config_offline: 'true' };
  const { stdout } = await run('npx', ['--yes', 'trustgate', '--help'], { cwd: dir, env, timeout: 60_000 });
  const npxCache = path.join(cache, '_npx');
  return { stdout, installed: fs.existsSync(npxCache) ? fs.readdirSync(npxCache) : [] };
}

describe('scripts/link-bin.js', () => {
  test('when it has run, then npx trustgate runs bin/trustgate.js from node_modules/.bin, installing nothing', async () => {
    const dir = checkout({ private: true });
    await run(process.execPath, ['scripts/link-bin.js'], { cwd: dir });
    expect(fs.realpathSync(path.join(dir, 'node_modules', '.bin', 'trustgate'))).toBe(
      fs.realpathSync(path.join(dir, 'bin', 'trustgate.js')),
    );
    // Run again (a second npm install): the link is replaced, not refused.
    await run(process.execPath, ['scripts/link-bin.js'], { cwd: dir });
    expect(await npxTrustgate(dir)).toEqual({ stdout: 'ran --help', installed: [] });
  });

  test('when the checkout declares the bin itself, then npx installs the checkout into its cache first: the cost avoided', async () => {
    const dir = checkout({ private: true, bin: { trustgate: 'bin/trustgate.js' } });
    const { stdout, installed } = await npxTrustgate(dir);
    expect(stdout).toBe('ran --help');
    expect(installed).toHaveLength(1);
  });

  test('the repository declares no bin of its own and links the command after every install', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as {
      bin?: unknown;
      scripts: Record<string, string>;
    };
    expect(manifest.bin).toBeUndefined();
    expect(manifest.scripts.postinstall).toMatch(/\bnode scripts\/link-bin\.js\b/);
  });
});
