#!/usr/bin/env node
// `npm install`'s postinstall: puts the `trustgate` command in the checkout's node_modules/.bin,
// where `npx trustgate` finds it and runs bin/trustgate.js at once.
//
// Why not package.json's "bin": npm links a package's bins for whoever installs the package,
// never for the checkout itself, and `npx trustgate` in a checkout whose package.json declares a
// `trustgate` bin treats it as "self-execution of a local bin" (libnpmexec): it installs the
// checkout into npm's npx cache first, reading the whole dependency tree, which took 25 s on the
// first run and a second or so on every run after. A command found in node_modules/.bin is run
// without any of that.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const root = path.join(__dirname, '..');
const binDir = path.join(root, 'node_modules', '.bin');
const link = path.join(binDir, 'trustgate');

fs.mkdirSync(binDir, { recursive: true });
fs.rmSync(link, { force: true });
if (process.platform === 'win32') {
  // No symbolic links without privileges: npm's own shims are small scripts; so are these.
  fs.writeFileSync(link, '#!/bin/sh\nexec node "$(dirname "$0")/../../bin/trustgate.js" "$@"\n', { mode: 0o755 });
  fs.rmSync(`${link}.cmd`, { force: true });
  fs.writeFileSync(`${link}.cmd`, '@node "%~dp0\\..\\..\\bin\\trustgate.js" %*\r\n');
} else {
  fs.symlinkSync(path.join('..', '..', 'bin', 'trustgate.js'), link);
}
