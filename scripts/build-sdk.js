#!/usr/bin/env node
// Bundles the web SDK's script-tag entry (packages/web/src/script-tag.ts) with esbuild into
// dist/sdk/trustgate.js, the file the server sends at GET /sdk.js: one minified script, no imports,
// for browsers from 2018 on (ES2018). `npm run build` runs it, and the @trustgate/web package's
// build writes the same bundle into the package; tests call buildSdk() so they load what the
// sources say today.
'use strict';
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const SDK_BUNDLE_PATH = path.join(root, 'dist', 'sdk', 'trustgate.js');

async function buildSdk({ outfile = SDK_BUNDLE_PATH } = {}) {
  const esbuild = require('esbuild');
  const { version } = require('../packages/web/package.json');
  await esbuild.build({
    entryPoints: [path.join(root, 'packages', 'web', 'src', 'script-tag.ts')],
    outfile,
    bundle: true,
    minify: true,
    format: 'iife',
    target: 'es2018',
    platform: 'browser',
    legalComments: 'none',
    banner: {
      js: `/* Trustgate web SDK ${version} (MIT). Includes @fingerprintjs/botd (MIT) and murmurhash3js-revisited (MIT). */`,
    },
    logLevel: 'warning',
  });
  return outfile;
}

module.exports = { buildSdk, SDK_BUNDLE_PATH };

if (require.main === module) {
  buildSdk().then(
    (file) => console.log(`web SDK → ${path.relative(process.cwd(), file)}`),
    (err) => {
      console.error(err.message);
      process.exit(1);
    },
  );
}
