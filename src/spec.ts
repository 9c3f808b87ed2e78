/** Where the contract lives at run time, and its bundled form (openapi.yaml with webhooks.yaml inlined). */
import fs from 'node:fs';
import path from 'node:path';
import $RefParser from '@apidevtools/json-schema-ref-parser';

function findRoot(start: string): string {
  let dir = start;
  while (!fs.existsSync(path.join(dir, 'openapi.yaml'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`openapi.yaml not found above ${start}`);
    dir = parent;
  }
  return dir;
}

/** The package root: the folder that holds openapi.yaml (from src/ and from dist/src/ alike). */
export const PACKAGE_ROOT = findRoot(__dirname);
export const OPENAPI_PATH = path.join(PACKAGE_ROOT, 'openapi.yaml');
export const WEBHOOKS_PATH = path.join(PACKAGE_ROOT, 'webhooks.yaml');

/** The whole contract as one document: references to webhooks.yaml become internal ones. */
export async function bundledSpec(): Promise<Record<string, unknown>> {
  return (await $RefParser.bundle(OPENAPI_PATH)) as Record<string, unknown>;
}
