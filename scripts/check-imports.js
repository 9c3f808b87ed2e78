#!/usr/bin/env node
// The import graph of src/: fails (exit 1) on an import cycle and on an import of a higher layer
// by a lower one, type-only imports included in both (docs/architecture.md, "Who may import
// whom"). A cycle of types alone is gone once compiled, but its modules still cannot be read,
// tested or moved one without the other; a cycle that runs also depends on the load order.
// Also fails on a file of an npm package (packages/<name>/src) importing a path outside its own
// src/: a package is installed alone, without the server.
//
//   node scripts/check-imports.js [--graph]
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const ts = require('typescript');

const ROOT = path.resolve(__dirname, '..');
const SRC = path.join(ROOT, 'src');

/**
 * Layers, lowest first: a module may import its own layer and the ones below it. The first
 * prefix that matches a module's path (from src/, without extension) gives its layer.
 */
const LAYERS = [
  ['foundation', ['api-types', 'clock', 'errors', 'logger', 'loops', 'spec', 'config/', 'with-deps']],
  ['domain', ['domain/']],
  ['edges', ['storage/', 'analysis/', 'geo/', 'security/', 'telemetry/']],
  ['use cases', ['usecases/', 'webhooks/']],
  ['delivery', ['http/', 'demo/']],
  ['composition', ['app', 'composition', 'composition/', 'main', 'cli/', 'cluster', 'worker']],
];

function layerOf(module) {
  for (let i = 0; i < LAYERS.length; i++) {
    if (LAYERS[i][1].some((p) => (p.endsWith('/') ? module.startsWith(p) : module === p))) return i;
  }
  return undefined;
}

function filesUnder(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return filesUnder(p);
    return /\.ts$/.test(e.name) && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

/** A relative specifier resolved to a module of src/ (its path from src/, no extension), or undefined. */
function resolve(from, specifier) {
  if (!specifier.startsWith('.')) return undefined;
  const base = path.resolve(path.dirname(from), specifier);
  for (const candidate of [`${base}.ts`, path.join(base, 'index.ts')]) {
    if (fs.existsSync(candidate) && candidate.startsWith(SRC + path.sep))
      return path.relative(SRC, candidate).replace(/\.ts$/, '').split(path.sep).join('/');
  }
  return undefined;
}

/** Whether the import declaration survives compilation (it names a value, or only runs the module). */
function runs(node) {
  const clause = node.importClause;
  if (!clause) return true;
  if (clause.isTypeOnly) return false;
  if (clause.name) return true;
  const bindings = clause.namedBindings;
  if (!bindings) return true;
  if (ts.isNamespaceImport(bindings)) return true;
  return bindings.elements.length === 0 || bindings.elements.some((e) => !e.isTypeOnly);
}

function importsOf(file) {
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, false);
  const out = [];
  const visit = (node) => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      const target = resolve(file, node.moduleSpecifier.text);
      const atRuntime = ts.isImportDeclaration(node) ? runs(node) : !node.isTypeOnly;
      if (target) out.push({ target, runtime: atRuntime });
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      const target = resolve(file, node.arguments[0].text);
      if (target) out.push({ target, runtime: true });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

const graph = new Map();
for (const file of filesUnder(SRC))
  graph.set(path.relative(SRC, file).replace(/\.ts$/, '').split(path.sep).join('/'), importsOf(file));

const problems = [];

// The packages: relative imports stay inside the package's own src/.
const PACKAGES = path.join(ROOT, 'packages');
for (const name of fs.existsSync(PACKAGES) ? fs.readdirSync(PACKAGES) : []) {
  const own = path.join(PACKAGES, name, 'src');
  if (!fs.existsSync(own)) continue;
  for (const file of filesUnder(own)) {
    const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, false);
    for (const statement of source.statements) {
      const specifier =
        (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) &&
        statement.moduleSpecifier &&
        ts.isStringLiteral(statement.moduleSpecifier)
          ? statement.moduleSpecifier.text
          : undefined;
      if (specifier?.startsWith('.') && !path.resolve(path.dirname(file), specifier).startsWith(own + path.sep))
        problems.push(`${path.relative(ROOT, file)} imports ${specifier}, outside packages/${name}/src`);
    }
  }
}

// Migrations: a migration must replay the same forever, so it imports none of the project's
// code that may change under it: only the other files of its folder (migrations, and helpers
// frozen with them). Live code it needs is copied into it, as it was then. Packages are pinned in
// package-lock.json, and the migration tests hold the values a migration derives with one
// (0004's address blocks), so an upgrade that changes them fails there.
const MIGRATIONS = path.join(SRC, 'storage', 'migrations');
for (const file of filesUnder(MIGRATIONS)) {
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, false);
  const visit = (node) => {
    let specifier;
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      specifier = node.moduleSpecifier;
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference))
      specifier = node.moduleReference.expression;
    else if (
      ts.isCallExpression(node) &&
      (node.expression.kind === ts.SyntaxKind.ImportKeyword ||
        (ts.isIdentifier(node.expression) && node.expression.text === 'require'))
    )
      specifier = node.arguments[0];
    if (specifier && ts.isStringLiteral(specifier)) {
      const text = specifier.text;
      const leaves = text.startsWith('.') && !path.resolve(path.dirname(file), text).startsWith(MIGRATIONS + path.sep);
      if (leaves)
        problems.push(
          `${path.relative(ROOT, file)} imports ${text}: a migration must replay the same forever: copy what it needs into it`,
        );
    } else if (specifier)
      problems.push(`${path.relative(ROOT, file)}: an import of a computed module (a migration's must be seen)`);
    ts.forEachChild(node, visit);
  };
  visit(source);
}

// Layers.
for (const [module, imports] of graph) {
  const own = layerOf(module);
  if (own === undefined) {
    problems.push(
      `${module}: in no layer (add its folder to LAYERS in scripts/check-imports.js and to docs/architecture.md)`,
    );
    continue;
  }
  for (const { target } of imports) {
    const theirs = layerOf(target);
    if (theirs !== undefined && theirs > own)
      problems.push(`upward import: ${module} (${LAYERS[own][0]}) imports ${target} (${LAYERS[theirs][0]})`);
  }
}

// Cycles among all the imports: strongly connected components (Tarjan).
/** Whether every import between the modules of a cycle is type-only (moving a type breaks it). */
function typesOnly(component) {
  const inside = new Set(component);
  return component.every((m) => graph.get(m).every((i) => !inside.has(i.target) || !i.runtime));
}

let index = 0;
const stack = [];
const state = new Map();
function connect(v) {
  const s = { index, low: index, onStack: true };
  index++;
  state.set(v, s);
  stack.push(v);
  for (const { target } of graph.get(v) ?? []) {
    if (!graph.has(target)) continue;
    const t = state.get(target);
    if (!t) {
      connect(target);
      s.low = Math.min(s.low, state.get(target).low);
    } else if (t.onStack) s.low = Math.min(s.low, t.index);
  }
  if (s.low === s.index) {
    const component = [];
    let w;
    do {
      w = stack.pop();
      state.get(w).onStack = false;
      component.push(w);
    } while (w !== v);
    const selfImport = (graph.get(v) ?? []).some((i) => i.target === v);
    if (component.length > 1 || selfImport)
      problems.push(`import cycle: ${component.sort().join(' → ')}${typesOnly(component) ? ' (types only)' : ''}`);
  }
}
for (const v of graph.keys()) if (!state.has(v)) connect(v);

if (process.argv.includes('--graph')) {
  for (const [module, imports] of [...graph].sort())
    console.log(`${module}: ${imports.map((i) => i.target + (i.runtime ? '' : ' (type)')).join(', ')}`);
}
if (problems.length) {
  console.error(problems.join('\n'));
  console.error(
    `\ncheck-imports: ${problems.length} problem${problems.length === 1 ? '' : 's'} in ${graph.size} modules`,
  );
  process.exit(1);
}
console.log(`check-imports: ${graph.size} modules, no cycle, no upward import`);
