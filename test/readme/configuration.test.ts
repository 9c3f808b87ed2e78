/**
 * docs/configuration.md against the code that reads the environment (src/config/, the only
 * place that does): every variable read there is in the page's tables, and every setting the
 * tables name is read there. The OpenTelemetry SDK's standard variables are listed as a family
 * in the table and one by one in docs/deploy.md, *Metrics and tracing*.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PACKAGE_ROOT } from '../../src/spec';

const CONFIG_DIR = path.join(PACKAGE_ROOT, 'src', 'config');
const read = (file: string) => fs.readFileSync(path.join(PACKAGE_ROOT, file), 'utf8');

/** The variables src/config reads: `env.NAME`, `env['NAME']`, a reader's `(env, 'NAME'`, or a quoted name. */
function variablesRead(): Set<string> {
  const source = fs
    .readdirSync(CONFIG_DIR)
    .filter((f) => f.endsWith('.ts'))
    .map((f) => fs.readFileSync(path.join(CONFIG_DIR, f), 'utf8'))
    .join('\n');
  const names = [
    ...source.matchAll(/\benv\.([A-Z][A-Z0-9_]+)|\benv\['([A-Z][A-Z0-9_]+)'\]|\(env, '([A-Z][A-Z0-9_]+)'/g),
  ].map((m) => (m[1] ?? m[2] ?? m[3])!);
  // The lists' sources are read by a name made from the list's (IPLIST_SOURCE_TOR, …).
  if (source.includes('`IPLIST_SOURCE_${')) names.push('IPLIST_SOURCE_TOR');
  return new Set(names);
}

/** The settings the first column of the page's tables names. */
function settingsDocumented(): Set<string> {
  const rows = read('docs/configuration.md')
    .split('\n')
    .filter((line) => line.startsWith('| `'));
  return new Set(rows.flatMap((row) => [...row.split('|')[1]!.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1]!)));
}

describe('docs/configuration.md', () => {
  const readVars = variablesRead();
  const documented = settingsDocumented();

  it('when src/config is read, then the variables it reads are found', () => {
    expect(readVars.has('PORT')).toBe(true);
    expect(readVars.has('DATABASE_URL')).toBe(true);
    expect(readVars.size).toBeGreaterThan(50);
  });

  it('when the page is compared with src/config, then every variable read is in its tables', () => {
    const missing = [...readVars].filter((n) => !n.startsWith('OTEL_') && n !== 'NODE_ENV' && !documented.has(n));
    expect(missing).toEqual([]);
  });

  it('when the page is compared with src/config, then every setting its tables name is read', () => {
    expect([...documented].filter((n) => !readVars.has(n))).toEqual([]);
  });

  it('when the OpenTelemetry variables read are looked for, then docs/deploy.md names each', () => {
    const deploy = read('docs/deploy.md');
    expect([...readVars].filter((n) => n.startsWith('OTEL_') && !new RegExp(`\\b${n}\\b`).test(deploy))).toEqual([]);
  });
});
