/** Where the contract lives at run time, and its bundled form (openapi.yaml with webhooks.yaml inlined). */
import fs from 'node:fs';
import path from 'node:path';

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

/** The whole contract in one document (written by `npm run generate`), served at /openapi.json. */
export const BUNDLED_SPEC_PATH = path.join(PACKAGE_ROOT, 'generated', 'openapi.json');

/** What the service reads from the bundled contract at run time (see bundledSpec). */
export interface BundledSpec {
  paths: Record<string, Record<string, { requestBody?: { content?: Record<string, unknown> } } | unknown>>;
  components: { schemas: Record<string, { pattern?: string }> };
}

let bundled: BundledSpec | undefined;
/** The bundled contract, read once (it is generated from openapi.yaml; `generate:check` keeps them equal). */
export function bundledSpec(): BundledSpec {
  bundled ??= JSON.parse(fs.readFileSync(BUNDLED_SPEC_PATH, 'utf8')) as BundledSpec;
  return bundled;
}

/** Every operationId of the contract (GET /metrics makes their children ahead). */
export function operationIds(): string[] {
  const ids: string[] = [];
  for (const item of Object.values(bundledSpec().paths)) {
    for (const operation of Object.values(item)) {
      const id = (operation as { operationId?: unknown } | null)?.operationId;
      if (typeof id === 'string') ids.push(id);
    }
  }
  return ids;
}
