'use strict';
// The whole contract as one document: openapi.yaml with webhooks.yaml's webhooks, schemas and
// examples moved into its components (Redocly's bundler). Used by `npm run generate` (which
// writes generated/openapi.json, served at /openapi.json) and by the tests.
const path = require('node:path');

const root = path.resolve(__dirname, '..');

async function bundleSpec() {
  const { bundle, createConfig } = require('@redocly/openapi-core');
  const config = await createConfig({});
  const { bundle: result, problems } = await bundle({ ref: path.join(root, 'openapi.yaml'), config });
  const errors = problems.filter((p) => p.severity === 'error');
  if (errors.length) throw new Error(`the spec does not bundle:\n${errors.map((p) => p.message).join('\n')}`);
  return result.parsed;
}

module.exports = { bundleSpec, root };
