#!/usr/bin/env node
// Builds one of the npm packages under packages/ into its dist/ (each package's `npm run build`,
// and `npm pack` through its prepack):
//   dist/esm/index.js   the ES module (esbuild, one file), beside dist/esm/package.json {"type":"module"}
//   dist/cjs/index.js   the CommonJS module (esbuild, one file), beside {"type":"commonjs"}
//   dist/{esm,cjs}/*.d.ts  the declarations (tsc), once in each, so that TypeScript reads them as
//                       the module kind it loads (nodenext and node16 tell the two apart)
//   dist/trustgate.js   web only: the script-tag bundle (scripts/build-sdk.js), as GET /sdk.js serves it
// The client keeps its dependency (openapi-fetch) external; the web SDK bundles everything it uses.
//
//   node scripts/build-package.js client|web
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { buildSdk } = require('./build-sdk');

const PACKAGES = {
  client: { platform: 'node', target: 'node20', external: true },
  web: { platform: 'browser', target: 'es2018', external: false, scriptTag: true },
};

async function buildPackage(name) {
  const settings = PACKAGES[name];
  if (!settings) throw new Error(`build-package: no package ${name} (one of ${Object.keys(PACKAGES).join(', ')})`);
  const dir = path.resolve(__dirname, '..', 'packages', name);
  const dist = path.join(dir, 'dist');
  fs.rmSync(dist, { recursive: true, force: true });

  const esbuild = require('esbuild');
  const { version } = require(path.join(dir, 'package.json'));
  for (const [format, type] of [
    ['esm', 'module'],
    ['cjs', 'commonjs'],
  ]) {
    await esbuild.build({
      entryPoints: [path.join(dir, 'src', 'index.ts')],
      outfile: path.join(dist, format, 'index.js'),
      bundle: true,
      format,
      platform: settings.platform,
      target: settings.target,
      packages: settings.external ? 'external' : undefined,
      legalComments: 'inline',
      banner: { js: `/* @trustgate/${name} ${version} (MIT) */` },
      logLevel: 'warning',
    });
    fs.writeFileSync(path.join(dist, format, 'package.json'), JSON.stringify({ type }) + '\n');
  }

  const tsc = spawnSync(
    process.execPath,
    [
      require.resolve('typescript/bin/tsc'),
      ...['-p', path.join(dir, 'tsconfig.json'), '--noEmit', 'false', '--declaration', '--emitDeclarationOnly'],
      ...['--outDir', path.join(dist, 'esm')],
    ],
    { stdio: 'inherit' },
  );
  if (tsc.status !== 0) throw new Error(`build-package: tsc failed for ${name}`);
  for (const file of fs.readdirSync(path.join(dist, 'esm'), { recursive: true })) {
    if (String(file).endsWith('.d.ts')) {
      fs.mkdirSync(path.dirname(path.join(dist, 'cjs', file)), { recursive: true });
      fs.copyFileSync(path.join(dist, 'esm', file), path.join(dist, 'cjs', file));
    }
  }

  if (settings.scriptTag) await buildSdk({ outfile: path.join(dist, 'trustgate.js') });
  return dist;
}

module.exports = { buildPackage };

if (require.main === module) {
  buildPackage(process.argv[2]).then(
    (dist) => console.log(`built ${path.relative(process.cwd(), dist) || '.'}`),
    (err) => {
      console.error(err.message);
      process.exit(1);
    },
  );
}
