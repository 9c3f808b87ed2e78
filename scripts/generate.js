#!/usr/bin/env node
// Generates, from openapi.yaml (which pulls in webhooks.yaml):
//   generated/openapi.d.ts  the TypeScript types (openapi-typescript): paths, webhooks, components
//   generated/openapi.json  the bundled contract in one document, served at /openapi.json
//   packages/client/src/generated/openapi.ts, packages/web/src/generated/openapi.ts  the same types
//     inside each npm package (a .ts file, so that tsc emits its .d.ts beside the package's own)
// `--check` writes nothing and exits 1 when a committed file differs from what the spec
// generates, so CI catches a spec change whose outputs were not regenerated.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { pathToFileURL } = require('node:url');

const { bundleSpec, root } = require('./bundle-spec');

const spec = path.join(root, 'openapi.yaml');
const typesOut = path.join(root, 'generated', 'openapi.d.ts');
const bundleOut = path.join(root, 'generated', 'openapi.json');
const packageTypesOut = ['client', 'web'].map((name) =>
  path.join(root, 'packages', name, 'src', 'generated', 'openapi.ts'),
);

const header = (importer) => `/**
 * Generated from openapi.yaml and webhooks.yaml by \`npm run generate\`. Do not edit:
 * change the spec and regenerate. Code imports these types through ${importer}.
 */

`;

async function main() {
  const check = process.argv.includes('--check');
  const { default: openapiTS, astToString } = await import('openapi-typescript');
  const ast = await openapiTS(pathToFileURL(spec), {
    // Generated from the files themselves, not from redocly.yaml's list of APIs.
    redocly: undefined,
  });
  const types = astToString(ast);
  const outputs = [
    [typesOut, header('src/api-types.ts') + types],
    ...packageTypesOut.map((file) => [file, header('src/types.ts') + types]),
    [bundleOut, JSON.stringify(await bundleSpec(), null, 2) + '\n'],
  ];
  let stale = false;
  for (const [file, text] of outputs) {
    const name = path.relative(root, file);
    if (check) {
      const current = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
      if (current !== text) {
        console.error(`${name} is stale: run \`npm run generate\` and commit the result.`);
        stale = true;
      }
    } else {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, text);
      console.log(`wrote ${name}`);
    }
  }
  if (check && stale) process.exit(1);
  if (check) console.log("generated/ and the packages' generated types match the spec.");
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
