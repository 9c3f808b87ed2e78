#!/usr/bin/env node
// Reads one or more `jest --json` result files and prints, per run and in total, the plain
// closing line CI reads: "N passed, N failed". Exits 1 when any test failed or a run is missing.
'use strict';
const fs = require('node:fs');

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error('usage: test-summary.js RESULTS.json [MORE.json ...]');
  process.exit(2);
}
let passed = 0;
let failed = 0;
let broken = false;
for (const file of files) {
  if (!fs.existsSync(file)) {
    console.error(`test-summary: ${file} is missing (the run did not finish)`);
    broken = true;
    continue;
  }
  const r = JSON.parse(fs.readFileSync(file, 'utf8'));
  const suiteErrors = r.numRuntimeErrorTestSuites || 0;
  console.log(
    `${file}: ${r.numPassedTests} passed, ${r.numFailedTests} failed` +
      (suiteErrors ? `, ${suiteErrors} suites failed to run` : ''),
  );
  passed += r.numPassedTests;
  failed += r.numFailedTests + suiteErrors;
  if (r.numTotalTests === 0) broken = true;
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 || broken ? 1 : 0);
