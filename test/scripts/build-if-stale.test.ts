/**
 * `npm start`'s staleness check (scripts/build-if-stale.js) on a folder of its own: fresh after
 * a build's stamp, stale when a source, a config or the lock file changes or an output is missing.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const check = require('../../scripts/build-if-stale') as {
  clean(root: string): void;
  staleness(root: string): string | undefined;
  writeStamp(root: string): void;
  OUTPUTS: string[];
};

let root: string;
const write = (rel: string, text: string) => {
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  fs.writeFileSync(path.join(root, rel), text);
};

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'tg-stale-'));
  write('src/main.ts', 'listen();\n');
  write('packages/web/src/index.ts', 'session();\n');
  write('package-lock.json', '{}\n');
  for (const output of check.OUTPUTS) write(output, 'built\n');
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

test('when nothing changed since the stamp, then no build is needed', () => {
  expect(check.staleness(root)).toBe('dist/.build-stamp is missing');
  check.writeStamp(root);
  expect(check.staleness(root)).toBeUndefined();
});

test('when a source, a new file, a package or the lock file changes after the stamp, then a build is needed', () => {
  for (const change of [
    () => write('src/main.ts', 'listen(0);\n'),
    () => write('src/config.ts', 'export {};\n'),
    () => write('packages/web/src/index.ts', 'session(1);\n'),
    () => write('packages/client/src/index.ts', 'client();\n'),
    () => write('package-lock.json', '{"v":2}\n'),
    () => fs.rmSync(path.join(root, 'src/config.ts')),
  ]) {
    check.writeStamp(root);
    change();
    expect(check.staleness(root)).toBe('the sources changed since the last build');
  }
});

test('when only a modification time changes (a checkout, a copy), then no build is needed', () => {
  check.writeStamp(root);
  const later = new Date(Date.now() + 3_600_000);
  fs.utimesSync(path.join(root, 'src/main.ts'), later, later);
  expect(check.staleness(root)).toBeUndefined();
});

test('when an output is missing, then a build is needed whatever the stamp says', () => {
  check.writeStamp(root);
  fs.rmSync(path.join(root, 'dist/src/main.js'));
  expect(check.staleness(root)).toBe('dist/src/main.js is missing');
});

test("when a build starts, then the last build's compiled files are gone (an old module.js cannot shadow the folder that replaced it)", () => {
  write('dist/src/geo/ip-lists.js', 'exports.openIpLists = () => ({});\n');
  write('dist/src/geo/ip-lists/index.js', 'exports.openIpLists = () => ({ status() {} });\n');
  write('dist/generated/api.js', '\n');
  check.writeStamp(root);
  check.clean(root);
  expect(fs.existsSync(path.join(root, 'dist/src'))).toBe(false);
  expect(fs.existsSync(path.join(root, 'dist/generated'))).toBe(false);
  // The bundles are rebuilt by their own steps; an interrupted build leaves no stamp to trust.
  expect(fs.existsSync(path.join(root, 'dist/sdk/trustgate.js'))).toBe(true);
  expect(check.staleness(root)).toBe('dist/src/main.js is missing');
  // npm run build cleans before tsc compiles.
  const build = (
    JSON.parse(fs.readFileSync(path.join(__dirname, '../../package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    }
  ).scripts.build!;
  expect(build.indexOf('build-if-stale.js --clean')).toBeGreaterThan(-1);
  expect(build.indexOf('build-if-stale.js --clean')).toBeLessThan(build.indexOf('tsc -p tsconfig.build.json'));
});
