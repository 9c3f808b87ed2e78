#!/usr/bin/env node
// Sizes in src/: fails (exit 1) on a file over 500 lines, a function over 100 lines (declaration,
// expression, arrow, method, accessor or constructor, from its first line to its last, the
// comment above it left out) or a line over 140 characters, unless scripts/size-baseline.json
// lists it at that size or more. The baseline holds the offenders there were when the check came
// (issue 50), to be taken apart over time: none may grow, and no new one may join them. It only
// shrinks: an entry that is no longer an offender fails too, so that a file brought under the
// limit does not keep the room to grow back.
//
//   node scripts/check-size.js [--update] [--root DIR] [--baseline FILE]
//
// --update rewrites the baseline to the offenders there are now, and only to shrink it: it
// refuses (and writes nothing) while an offender is new or has grown. A review of the baseline's
// diff should see entries go and numbers fall, nothing else. An offender moved to another file is
// a new entry: move its line of the baseline by hand in the same commit. --root is the project
// (its src/ is read; by default this checkout), --baseline the file (by default
// scripts/size-baseline.json under the root): the test runs the check on a tree of its own.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const ts = require('typescript');

const LIMITS = { file: 500, function: 100, line: 140 };

/** Each of the baseline's three sections: what an entry of it is, and what a stale one no longer is. */
const KINDS = {
  files: { offender: `file over ${LIMITS.file} lines`, gone: `over ${LIMITS.file} lines` },
  functions: { offender: `function over ${LIMITS.function} lines`, gone: `over ${LIMITS.function} lines` },
  longLines: { offender: `over ${LIMITS.line} characters`, gone: `with a line over ${LIMITS.line} characters` },
};

/** An entry's key: its section, file and (a function's) name. */
const key = (...parts) => parts.join('\t');
const kindOf = (k) => k.split('\t')[0];

const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;

function options(argv) {
  const value = (flag) => (argv.includes(flag) ? argv[argv.indexOf(flag) + 1] : undefined);
  const root = path.resolve(value('--root') ?? path.join(__dirname, '..'));
  const baseline = path.resolve(value('--baseline') ?? path.join(root, 'scripts', 'size-baseline.json'));
  return { root, baseline, update: argv.includes('--update') };
}

function filesUnder(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return filesUnder(p);
    return e.name.endsWith('.ts') ? [p] : [];
  });
}

/** A property, method or variable name as written (a computed one as its source text). */
function textOf(name) {
  if (ts.isIdentifier(name) || ts.isPrivateIdentifier(name) || ts.isStringLiteral(name) || ts.isNumericLiteral(name))
    return name.text;
  return name.getText();
}

/** What a function without a name of its own is assigned to: a variable, a property, a field. */
function assignedTo(parent) {
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent))
    return textOf(parent.name);
  if (ts.isBinaryExpression(parent) && parent.operatorToken.kind === ts.SyntaxKind.EqualsToken)
    return parent.left.getText();
  return undefined;
}

function nameOf(node) {
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const prefix = ts.isGetAccessorDeclaration(node) ? 'get ' : ts.isSetAccessorDeclaration(node) ? 'set ' : '';
  if (node.name) return prefix + textOf(node.name);
  return assignedTo(node.parent) ?? '(anonymous)';
}

/** A function-like node with a body (an overload's or an interface's signature has none). */
function isFunction(node) {
  return ts.isFunctionLike(node) && node.body !== undefined;
}

/** The functions of a file over the limit: name, first line (1-based) and lines. */
function longFunctions(file, text) {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
  const lineOf = (pos) => source.getLineAndCharacterOfPosition(pos).line + 1;
  const out = [];
  const visit = (node) => {
    if (isFunction(node)) {
      const line = lineOf(node.getStart(source));
      const lines = lineOf(node.end) - line + 1;
      if (lines > LIMITS.function) out.push({ name: nameOf(node), line, lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

/**
 * The offenders of src/ under `root`: a map from an entry's key (section, file, and a function's
 * name) to its size and where it is. Two offenders of one name in a file are one entry, the
 * larger: the baseline names functions, not their order.
 */
function offenders(root) {
  const found = new Map();
  const add = (key, size, where) => {
    if (!found.has(key) || found.get(key).size < size) found.set(key, { size, where });
  };
  const files = filesUnder(path.join(root, 'src')).sort();
  for (const file of files) {
    const rel = path.relative(root, file).split(path.sep).join('/');
    const text = fs.readFileSync(file, 'utf8');
    const lines = text.split('\n');
    if (lines.at(-1) === '') lines.pop();
    if (lines.length > LIMITS.file) add(key('files', rel), lines.length, rel);
    for (const f of longFunctions(file, text))
      add(key('functions', rel, f.name), f.lines, `${rel}:${f.line} ${f.name}`);
    const long = lines.flatMap((l, i) => ([...l].length > LIMITS.line ? [i + 1] : []));
    if (long.length) add(key('longLines', rel), long.length, `${rel}:${long.join(',')}`);
  }
  return { found, files: files.length };
}

/** The baseline as a map like offenders' (entry key to size); undefined when the file is absent. */
function readBaseline(file) {
  if (!fs.existsSync(file)) return undefined;
  const json = JSON.parse(fs.readFileSync(file, 'utf8'));
  const out = new Map();
  for (const [rel, size] of Object.entries(json.files ?? {})) out.set(key('files', rel), size);
  for (const [rel, byName] of Object.entries(json.functions ?? {}))
    for (const [name, size] of Object.entries(byName)) out.set(key('functions', rel, name), size);
  for (const [rel, count] of Object.entries(json.longLines ?? {})) out.set(key('longLines', rel), count);
  return out;
}

function writeBaseline(file, found) {
  const json = { files: {}, functions: {}, longLines: {} };
  for (const [k, { size }] of [...found].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const [kind, rel, name] = k.split('\t');
    if (kind === 'functions') (json.functions[rel] ??= {})[name] = size;
    else json[kind][rel] = size;
  }
  fs.writeFileSync(file, `${JSON.stringify(json, null, 2)}\n`);
}

/** How an offender reads in a problem: where, and its size in the unit of its kind. */
function describe(kind, where, size) {
  if (kind === 'longLines') return `${where}: ${plural(size, 'line')} ${KINDS.longLines.offender}`;
  return `${where} (${size} lines): ${KINDS[kind].offender}`;
}

/**
 * The offenders new or grown past the baseline, the baseline's entries no longer offenders, and
 * how many entries are larger than their offender now (not a failure: --update records it).
 */
function compare(found, baseline) {
  const grown = [];
  let shrunk = 0;
  for (const [k, { size, where }] of found) {
    const known = baseline.get(k);
    if (known === undefined) grown.push(`${describe(kindOf(k), where, size)}, not in the baseline`);
    else if (size > known) grown.push(`${describe(kindOf(k), where, size)}, grown past the baseline's ${known}`);
    else if (size < known) shrunk++;
  }
  const stale = [...baseline.keys()]
    .filter((k) => !found.has(k))
    .map((k) => {
      const [kind, rel, name] = k.split('\t');
      return `${[rel, name].filter(Boolean).join(' ')}: in the baseline, no longer ${KINDS[kind].gone}: remove it with --update`;
    });
  return { grown, stale, shrunk };
}

function counts(found) {
  const n = { files: 0, functions: 0, longLines: 0 };
  for (const [k, { size }] of found) n[kindOf(k)] += kindOf(k) === 'longLines' ? size : 1;
  return (
    `${plural(n.files, 'file')} over ${LIMITS.file} lines, ` +
    `${plural(n.functions, 'function')} over ${LIMITS.function}, ${plural(n.longLines, 'line')} over ${LIMITS.line}`
  );
}

function main(argv) {
  const opts = options(argv);
  const shown = path.relative(opts.root, opts.baseline).startsWith('..')
    ? opts.baseline
    : path.relative(opts.root, opts.baseline);
  const { found, files } = offenders(opts.root);
  const baseline = readBaseline(opts.baseline);
  const { grown, stale, shrunk } = compare(found, baseline ?? new Map());
  if (opts.update && (grown.length === 0 || baseline === undefined)) {
    writeBaseline(opts.baseline, found);
    console.log(`check-size: ${plural(files, 'file')}; ${counts(found)}, written to ${shown}`);
    return 0;
  }
  const problems = [...grown, ...stale];
  if (problems.length) {
    console.error(problems.join('\n'));
    if (opts.update) console.error('\n--update only shrinks the baseline: make the new or grown offenders smaller');
    console.error(`\ncheck-size: ${plural(problems.length, 'problem')} in ${plural(files, 'file')}`);
    return 1;
  }
  const slack = shrunk ? `; ${shrunk} smaller than recorded: --update` : '';
  console.log(`check-size: ${plural(files, 'file')}; ${counts(found)}, all known (${shown}${slack})`);
  return 0;
}

process.exitCode = main(process.argv.slice(2));
