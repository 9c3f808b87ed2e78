#!/usr/bin/env node
// Generates generated/openapi.d.ts from openapi.yaml (which pulls in webhooks.yaml).
// `--check` writes nothing and exits 1 when the committed file differs from what the spec
// generates, so CI catches a spec change whose types were not regenerated.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { pathToFileURL } = require('node:url');

const root = path.resolve(__dirname, '..');
const spec = path.join(root, 'openapi.yaml');
const out = path.join(root, 'generated', 'openapi.d.ts');

const header = `/**
 * Generated from openapi.yaml and webhooks.yaml by \`npm run generate\`. Do not edit:
 * change the spec and regenerate. Code imports these types through src/api-types.ts.
 */

`;

async function main() {
  const check = process.argv.includes('--check');
  const { default: openapiTS, astToString } = await import('openapi-typescript');
  const ast = await openapiTS(pathToFileURL(spec), {
    // Generated from the files themselves, not from redocly.yaml's list of APIs.
    redocly: undefined,
  });
  const text = header + astToString(ast);
  if (check) {
    const current = fs.existsSync(out) ? fs.readFileSync(out, 'utf8') : '';
    if (current !== text) {
      console.error('generated/openapi.d.ts is stale: run `npm run generate` and commit the result.');
      process.exit(1);
    }
    console.log('generated/openapi.d.ts matches the spec.');
    return;
  }
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, text);
  console.log(`wrote ${path.relative(root, out)}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
