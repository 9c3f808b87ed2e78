/**
 * The relative links of README.md, CHANGELOG.md, CONTRIBUTING.md and docs/*.md lead somewhere: each names a file of the
 * repository and, when it names a heading of a Markdown page (`page.md#anchor`, or `#anchor` on
 * the same page), that page has the heading, by GitHub's rule for anchors. Links inside code
 * blocks and links to other sites are not followed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PACKAGE_ROOT } from '../../src/spec';

const PAGES = [
  'README.md',
  'CHANGELOG.md',
  'CONTRIBUTING.md',
  ...fs
    .readdirSync(path.join(PACKAGE_ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** The page without its fenced code blocks and inline code spans. */
function prose(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');
}

/** GitHub's anchor of each heading: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const text = markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
  for (const [, heading] of text.matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)) {
    const slug = heading!
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}_\- ]/gu, '')
      .replace(/ /g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    anchors.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return anchors;
}

/** Each relative link target of a page: `[text](target)`, without a title. */
function relativeLinks(markdown: string): string[] {
  return [...prose(markdown).matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)]
    .map((m) => m[1]!)
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

const read = (page: string) => fs.readFileSync(path.join(PACKAGE_ROOT, page), 'utf8');

describe('the relative links of README.md and docs/*.md', () => {
  it('when the pages are listed, then README.md and the docs pages are among them', () => {
    expect(PAGES).toContain('README.md');
    expect(PAGES).toContain('docs/configuration.md');
  });

  it.each(PAGES)('when %s is read, then each relative link names an existing file and heading', (page) => {
    const broken: string[] = [];
    for (const target of relativeLinks(read(page))) {
      const [file, anchor] = target.split('#') as [string, string | undefined];
      const resolved = file === '' ? page : path.posix.normalize(path.posix.join(path.posix.dirname(page), file));
      const absolute = path.join(PACKAGE_ROOT, resolved);
      if (resolved.startsWith('..') || !fs.existsSync(absolute)) {
        broken.push(`${target}: no file ${resolved}`);
        continue;
      }
      if (anchor && resolved.endsWith('.md') && !anchorsOf(read(resolved)).has(anchor))
        broken.push(`${target}: ${resolved} has no heading with the anchor #${anchor}`);
    }
    expect(broken).toEqual([]);
  });

  it('when a link names a missing file or heading, then the check reports it', () => {
    expect(anchorsOf("# Title\n## SQLite's page cache, and `code`\n## Title\n```\n# not a heading\n```\n")).toEqual(
      new Set(['title', 'sqlites-page-cache-and-code', 'title-1']),
    );
    expect(relativeLinks('[a](docs/x.md#y) [b](https://example.com) `[c](no.md)` [d](#top)')).toEqual([
      'docs/x.md#y',
      '#top',
    ]);
  });
});
