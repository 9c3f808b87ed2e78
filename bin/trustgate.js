#!/usr/bin/env node
'use strict';
// The `trustgate` command runs the compiled CLI (npm install builds it; or run `npm run build`).
const path = require('node:path');
const fs = require('node:fs');
const entry = path.join(__dirname, '..', 'dist', 'src', 'cli', 'main.js');
if (!fs.existsSync(entry)) {
  process.stderr.write('trustgate: not built yet; run `npm run build` (npm install does it) in the checkout.\n');
  process.exit(1);
}
require(entry)
  .cli(process.argv.slice(2))
  .then((code) => process.exit(code));
