#!/usr/bin/env node
// Prints the web SDK bundle's size, raw and gzipped, and fails when the gzipped size is over
// the budget (25 KB). Builds the bundle first, so it measures the current sources.
'use strict';
const fs = require('node:fs');
const zlib = require('node:zlib');
const { buildSdk } = require('./build-sdk');

const BUDGET_BYTES = 25 * 1024;

buildSdk().then((file) => {
  const raw = fs.readFileSync(file);
  const gzipped = zlib.gzipSync(raw, { level: 9 }).length;
  const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
  console.log(`web SDK: ${kb(raw.length)} minified, ${kb(gzipped)} gzipped (budget ${kb(BUDGET_BYTES)} gzipped)`);
  if (gzipped > BUDGET_BYTES) {
    console.error('web SDK is over its size budget');
    process.exit(1);
  }
});
