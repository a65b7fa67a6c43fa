import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../main/version.js';

const DOCS = join(PROJECT_ROOT, 'docs');
const PAGES = [join(PROJECT_ROOT, 'README.md'), ...readdirSync(DOCS).filter((name) => name.endsWith('.md')).map((name) => join(DOCS, name))];

/** The text outside fenced code blocks, where a `[x](y)` is an example and not a link. */
function prose(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
}

/** GitHub's anchor of a heading: its text lower-cased, punctuation dropped, spaces as hyphens. */
function slug(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .trim()
    .replace(/\s/g, '-');
}

/** Every anchor a page offers: its headings' (the second of a name gets `-1`, as on GitHub) and its `<a id>`s. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, heading] of prose(markdown).matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)) {
    const base = slug(heading!);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  for (const [, id] of markdown.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(id!);
  return anchors;
}

/** The relative link targets of a page: `[text](target)` and `![alt](target)`, without web and mail addresses. */
function relativeLinks(markdown: string): string[] {
  const targets = [...prose(markdown).replace(/`[^`\n]*`/g, '').matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]!);
  return targets.filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

describe('links in README.md and docs/', () => {
  it.each(PAGES.map((page) => [relative(PROJECT_ROOT, page), page]))('%s: every relative link names a file that exists and an anchor it has', (_name, page) => {
    const markdown = readFileSync(page, 'utf8');
    const broken: string[] = [];
    for (const target of relativeLinks(markdown)) {
      const [path = '', anchor] = target.split('#', 2);
      const file = path === '' ? page : join(dirname(page), decodeURIComponent(path));
      if (!existsSync(file)) {
        broken.push(`${target}: no file ${relative(PROJECT_ROOT, file)}`);
        continue;
      }
      if (anchor !== undefined && file.endsWith('.md') && !anchorsOf(readFileSync(file, 'utf8')).has(decodeURIComponent(anchor))) {
        broken.push(`${target}: no heading with the anchor #${anchor} in ${relative(PROJECT_ROOT, file)}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('finds a broken file and a broken anchor', () => {
    const page = '# Title\n\n## A section, with `code`\n\n[ok](#a-section-with-code) [gone](#nothing) [file](no-such-file.md)\n```sh\n[not a link](neither.md)\n```\n';
    expect(relativeLinks(page)).toEqual(['#a-section-with-code', '#nothing', 'no-such-file.md']);
    expect([...anchorsOf(page)]).toEqual(['title', 'a-section-with-code']);
  });
});
