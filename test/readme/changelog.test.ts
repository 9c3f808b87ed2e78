/**
 * CHANGELOG.md held to the shape of Keep a Changelog 1.1.0 that CONTRIBUTING.md asks for:
 * `## [Unreleased]` first, then one `## [x.y.z] - YYYY-MM-DD` heading a release, newest first;
 * under each only the format's groups; one line an entry, short enough to read. The newest
 * release is the version package.json (and so `GET /`) states; the workspace packages, the lock
 * file and the contract's `info.version` carry the same one, so a release cannot be cut with one
 * of them left behind.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { PACKAGE_ROOT } from '../../src/spec';

const read = (file: string) => fs.readFileSync(path.join(PACKAGE_ROOT, file), 'utf8');
const versionOf = (file: string) => (JSON.parse(read(file)) as { version: string }).version;
const contractVersionOf = (file: string) => (parse(read(file)) as { info: { version: string } }).info.version;

const GROUPS = ['Added', 'Changed', 'Deprecated', 'Removed', 'Fixed', 'Security'];
const RELEASE = /^## \[(\d+)\.(\d+)\.(\d+)\] - (\d{4}-\d{2}-\d{2})$/;
const MAX_ENTRY = 300;

interface Section {
  heading: string;
  lines: string[];
}

/** The file cut at its `## ` headings; what comes before the first is the header. */
function sections(text: string): Section[] {
  const out: Section[] = [];
  for (const line of text.split('\n')) {
    if (line.startsWith('## ')) out.push({ heading: line, lines: [] });
    else out.at(-1)?.lines.push(line);
  }
  return out;
}

/** Negative, zero or positive as semantic version a comes before, with or after b. */
const compareVersions = (a: number[], b: number[]) => a.map((n, i) => n - b[i]!).find((d) => d !== 0) ?? 0;

const text = read('CHANGELOG.md');
const all = sections(text);
const releases = all.slice(1).map((s) => ({ ...s, match: RELEASE.exec(s.heading) }));

describe('CHANGELOG.md', () => {
  it('when read, then one title, `## [Unreleased]` first and every other `## ` heading a release with its date', () => {
    expect(text.split('\n').filter((l) => /^# /.test(l))).toEqual(['# Changelog']);
    expect(all[0]?.heading).toBe('## [Unreleased]');
    expect(releases.length).toBeGreaterThan(0);
    expect(releases.filter((r) => !r.match).map((r) => r.heading)).toEqual([]);
    for (const r of releases) {
      const date = r.match![4]!;
      expect([r.heading, new Date(`${date}T00:00:00Z`).toISOString().slice(0, 10)]).toEqual([r.heading, date]);
    }
  });

  it('when read, then the releases are newest first: versions descending, dates never rising', () => {
    const versions = releases.map((r) => r.match!.slice(1, 4).map(Number));
    const dates = releases.map((r) => r.match![4]!);
    for (let i = 1; i < releases.length; i++) {
      expect([releases[i]!.heading, compareVersions(versions[i - 1]!, versions[i]!) > 0]).toEqual([
        releases[i]!.heading,
        true,
      ]);
      expect([releases[i]!.heading, dates[i - 1]! >= dates[i]!]).toEqual([releases[i]!.heading, true]);
    }
  });

  it('when the newest release is compared with the packages, then package.json, the workspaces, the lock and the contract state it', () => {
    const newest = releases[0]!.match!.slice(1, 4).join('.');
    const lock = JSON.parse(read('package-lock.json')) as {
      version: string;
      packages: Record<string, { version?: string }>;
    };
    expect({
      root: versionOf('package.json'),
      client: versionOf('packages/client/package.json'),
      web: versionOf('packages/web/package.json'),
      lock: lock.version,
      lockRoot: lock.packages['']?.version,
      lockClient: lock.packages['packages/client']?.version,
      lockWeb: lock.packages['packages/web']?.version,
      openapi: contractVersionOf('openapi.yaml'),
      webhooks: contractVersionOf('webhooks.yaml'),
    }).toEqual({
      root: newest,
      client: newest,
      web: newest,
      lock: newest,
      lockRoot: newest,
      lockClient: newest,
      lockWeb: newest,
      openapi: newest,
      webhooks: newest,
    });
  });

  it("when a section is read, then only Keep a Changelog's groups, each once, and nothing but one-line entries under them", () => {
    for (const section of all) {
      const groups = section.lines.filter((l) => l.startsWith('#'));
      expect([section.heading, groups.filter((g) => !GROUPS.includes(g.replace(/^### /, '')))]).toEqual([
        section.heading,
        [],
      ]);
      expect([section.heading, new Set(groups).size]).toEqual([section.heading, groups.length]);
      // A line that is neither a group nor an entry is an entry's continuation or prose.
      const stray = section.lines.filter((l) => l.trim() !== '' && !l.startsWith('### ') && !l.startsWith('- '));
      expect([section.heading, stray]).toEqual([section.heading, []]);
      if (section !== all[0]) expect([section.heading, groups.length > 0]).toEqual([section.heading, true]);
    }
  });

  it(`when an entry is read, then it is at most ${MAX_ENTRY} characters`, () => {
    const long = text.split('\n').filter((l) => l.startsWith('- ') && l.length > MAX_ENTRY);
    expect(long.map((l) => `${l.length}: ${l.slice(0, 80)}…`)).toEqual([]);
  });
});
