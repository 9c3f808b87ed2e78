/**
 * The npm packages as a customer gets them: `npm pack` makes the workspaces' tarballs, and each is
 * installed into a fresh folder outside the repository from tarballs alone (--offline), its
 * registry dependencies packed from the repository's node_modules.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { PACKAGE_ROOT } from '../../src/spec';

export const run = promisify(execFile);

/** The environment without npm's own variables, as in a shell of the customer's. */
export const cleanEnv = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({
  ...Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.toLowerCase().startsWith('npm_'))),
  ...extra,
});

export interface Packed {
  name: string;
  filename: string;
  files: { path: string }[];
}

/** `npm pack` of the workspaces (`packages/client`, …) into `destination`: the packed packages by name. */
export async function packWorkspaces(workspaces: string[], destination: string): Promise<Map<string, Packed>> {
  const { stdout } = await run(
    'npm',
    ['pack', '--json', ...workspaces.flatMap((w) => ['--workspace', w]), '--pack-destination', destination],
    { cwd: PACKAGE_ROOT, env: cleanEnv(), maxBuffer: 16 * 1024 * 1024 },
  );
  // prepack's build logs before the JSON.
  const list = JSON.parse(stdout.slice(stdout.indexOf('\n[') + 1)) as Packed[];
  return new Map(list.map((p) => [p.name, p]));
}

const manifest = (dir: string) =>
  JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };

/**
 * Tarballs of the registry dependencies of the package in `dir`, packed into `destination` from
 * the repository's node_modules (the versions its lockfile
 * installed, dependencies of dependencies included): with them the install needs neither the
 * registry nor its metadata in the npm cache.
 */
async function dependencyTarballs(dir: string, destination: string): Promise<string[]> {
  const needed = new Set<string>();
  const visit = (dir: string) => {
    for (const dependency of Object.keys(manifest(dir).dependencies ?? {})) {
      if (needed.has(dependency)) continue;
      needed.add(dependency);
      visit(path.join(PACKAGE_ROOT, 'node_modules', dependency));
    }
  };
  visit(dir);
  if (needed.size === 0) return [];
  const packages = [...needed].map((dependency) => path.join(PACKAGE_ROOT, 'node_modules', dependency));
  const { stdout } = await run(
    'npm',
    ['pack', ...packages, '--json', '--ignore-scripts', '--pack-destination', destination],
    {
      cwd: destination,
      env: cleanEnv(),
      maxBuffer: 16 * 1024 * 1024,
    },
  );
  return (JSON.parse(stdout) as Packed[]).map((p) => path.join(destination, p.filename));
}

/**
 * A fresh folder under `parent` with the workspace package `name` installed from its tarball in
 * `parent`, offline, as in a customer's project.
 */
export async function installPacked(parent: string, packed: Map<string, Packed>, name: string): Promise<string> {
  const tarball = path.join(parent, packed.get(name)!.filename);
  const dir = fs.mkdtempSync(path.join(parent, 'consumer-'));
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true }));
  const destination = fs.mkdtempSync(path.join(parent, 'dependencies-'));
  const workspace = path.join(PACKAGE_ROOT, 'packages', name.replace('@trustgate/', ''));
  const dependencies = await dependencyTarballs(workspace, destination);
  await run('npm', ['install', tarball, ...dependencies, '--offline', '--no-audit', '--no-fund', '--ignore-scripts'], {
    cwd: dir,
    env: cleanEnv(),
  });
  return dir;
}
