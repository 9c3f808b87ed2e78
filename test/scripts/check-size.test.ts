/**
 * The size check of CI (scripts/check-size.js) on a src/ tree of its own: an offender that the
 * baseline does not hold, or holds at a smaller size, fails and is named; one it holds passes; an
 * entry that is no longer an offender fails; `--update` only ever shrinks the baseline.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const SCRIPT = path.join(__dirname, '../../scripts/check-size.js');

let root: string;
let baselineFile: string;
const write = (rel: string, text: string) => {
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  fs.writeFileSync(path.join(root, rel), text);
};
const setBaseline = (json: object) => fs.writeFileSync(baselineFile, JSON.stringify(json));
const readBaseline = () => JSON.parse(fs.readFileSync(baselineFile, 'utf8'));
const check = (...args: string[]) => {
  const run = spawnSync(process.execPath, [SCRIPT, '--root', root, '--baseline', baselineFile, ...args], {
    encoding: 'utf8',
  });
  return { status: run.status, out: run.stdout, err: run.stderr };
};

/** A function of `lines` lines from its first to its last (a body of lines - 2 statements). */
const fn = (head: string, lines: number) =>
  `${head} {\n${Array.from({ length: lines - 2 }, (_, i) => `  count += ${i};`).join('\n')}\n}`;
const longLine = `export const text = '${'x'.repeat(140)}';`;

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'tg-size-'));
  baselineFile = path.join(root, 'baseline.json');
  write('src/small.ts', `let count = 0;\n${fn('export function small()', 20)}\n`);
  write('src/big.ts', `let count = 0;\n/** Its comment is not counted. */\n${fn('export function big()', 120)}\n`);
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

test('when a function over 100 lines is not in the baseline, then the check fails naming it', () => {
  setBaseline({});
  const { status, err } = check();
  expect(status).toBe(1);
  expect(err).toContain('src/big.ts:3 big (120 lines): function over 100 lines, not in the baseline');
  expect(err).not.toContain('small');
});

test('when the baseline holds a function at its size, then the check passes and says so', () => {
  setBaseline({ functions: { 'src/big.ts': { big: 120 } } });
  const { status, out } = check();
  expect(status).toBe(0);
  expect(out).toBe(
    'check-size: 2 files; 0 files over 500 lines, 1 function over 100, 0 lines over 140, all known (baseline.json)\n',
  );
});

test('when a known function grows past its recorded size, then the check fails', () => {
  setBaseline({ functions: { 'src/big.ts': { big: 110 } } });
  const { status, err } = check();
  expect(status).toBe(1);
  expect(err).toContain("src/big.ts:3 big (120 lines): function over 100 lines, grown past the baseline's 110");
});

test('when a known function shrinks but is still over 100 lines, then the check passes and suggests --update', () => {
  setBaseline({ functions: { 'src/big.ts': { big: 130 } } });
  const { status, out } = check();
  expect(status).toBe(0);
  expect(out).toContain('all known (baseline.json; 1 smaller than recorded: --update)');
});

test('when a baseline entry is no longer an offender, then the check fails and says to remove it', () => {
  setBaseline({
    functions: { 'src/big.ts': { big: 120 }, 'src/small.ts': { small: 150 } },
    files: { 'src/gone.ts': 600 },
  });
  const { status, err } = check();
  expect(status).toBe(1);
  expect(err).toContain('src/small.ts small: in the baseline, no longer over 100 lines: remove it with --update');
  expect(err).toContain('src/gone.ts: in the baseline, no longer over 500 lines: remove it with --update');
});

test('when functions have no name of their own, then they are named by what they are assigned to', () => {
  write(
    'src/named.ts',
    [
      'let count = 0;',
      fn('export const arrow = () =>', 101),
      `export const object = { ${fn('method()', 102)}, property: ${fn('function ()', 103)} };`,
      `export class Thing { ${fn('constructor()', 104)} ${fn('get value()', 105)} }`,
      `[1].forEach(${fn('() =>', 106)});`,
      `object.later = ${fn('function ()', 107)};`,
    ].join('\n'),
  );
  setBaseline({ functions: { 'src/big.ts': { big: 120 } } });
  const { err } = check();
  for (const named of [
    'src/named.ts:2 arrow (101 lines)',
    'src/named.ts:103 method (102 lines)',
    'src/named.ts:204 property (103 lines)',
    'src/named.ts:307 constructor (104 lines)',
    'src/named.ts:410 get value (105 lines)',
    'src/named.ts:515 (anonymous) (106 lines)',
    'src/named.ts:621 object.later (107 lines)',
  ])
    expect(err).toContain(`${named}: function over 100 lines, not in the baseline`);
});

test('when lines are over 140 characters, then each file counts them and more than its count fails', () => {
  write('src/strings.ts', `${longLine}\nexport const short = 1;\n${longLine}\n`);
  setBaseline({ functions: { 'src/big.ts': { big: 120 } } });
  expect(check().err).toContain('src/strings.ts:1,3: 2 lines over 140 characters, not in the baseline');

  setBaseline({ functions: { 'src/big.ts': { big: 120 } }, longLines: { 'src/strings.ts': 2 } });
  expect(check().out).toContain('0 files over 500 lines, 1 function over 100, 2 lines over 140, all known');

  write('src/strings.ts', `${longLine}\n${longLine}\n${longLine}\n`);
  expect(check().err).toContain("src/strings.ts:1,2,3: 3 lines over 140 characters, grown past the baseline's 2");
});

test('when a file is over 500 lines, then it is an offender of its own', () => {
  write('src/long.ts', 'export const a = 1;\n'.repeat(501));
  setBaseline({ functions: { 'src/big.ts': { big: 120 } } });
  expect(check().err).toContain('src/long.ts (501 lines): file over 500 lines, not in the baseline');
});

test('when --update runs, then it drops and lowers entries but refuses to add one', () => {
  setBaseline({ functions: { 'src/big.ts': { big: 130 }, 'src/small.ts': { small: 150 } } });
  expect(check('--update').status).toBe(0);
  expect(readBaseline()).toEqual({ files: {}, functions: { 'src/big.ts': { big: 120 } }, longLines: {} });
  expect(check().status).toBe(0);

  write('src/strings.ts', `${longLine}\n`);
  const refused = check('--update');
  expect(refused.status).toBe(1);
  expect(refused.err).toContain('--update only shrinks the baseline');
  expect(readBaseline()).toEqual({ files: {}, functions: { 'src/big.ts': { big: 120 } }, longLines: {} });
});

test('when there is no baseline yet, then --update writes the offenders there are', () => {
  expect(check('--update').out).toContain('1 function over 100, 0 lines over 140, written to baseline.json');
  expect(readBaseline().functions).toEqual({ 'src/big.ts': { big: 120 } });
});
