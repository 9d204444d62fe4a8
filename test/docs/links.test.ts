// Every relative link of the user and contributor documentation resolves: the
// file (or folder) it names exists, and its `#anchor` is a heading of that
// file as GitHub makes anchors. External links (https:, mailto:) are not
// fetched.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { anchorsOf, linksOf, read, slug } from './markdown.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const docs = readdirSync(join(root, 'docs'))
  .filter((f) => f.endsWith('.md'))
  .map((f) => `docs/${f}`);
const PAGES = ['README.md', 'CONTRIBUTING.md', 'ARCHITECTURE.md', ...docs];

/** What is wrong with one link of `page`, or undefined when it resolves. */
function broken(page: string, href: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(href)) return undefined;
  const [path = '', anchor] = href.split('#', 2);
  const file = path === '' ? join(root, page) : join(root, dirname(page), decodeURIComponent(path));
  if (!existsSync(file)) return `${relative(root, file)} does not exist`;
  if (anchor === undefined) return undefined;
  if (!file.endsWith('.md') || statSync(file).isDirectory()) return `an anchor into ${relative(root, file)}`;
  const anchors = anchorsOf(read(file));
  return anchors.has(decodeURIComponent(anchor))
    ? undefined
    : `no heading of ${relative(root, file)} has the anchor #${anchor}`;
}

describe('documentation links', () => {
  test('the pages are there, with links to check', () => {
    expect(docs.length).toBeGreaterThanOrEqual(8);
    expect(linksOf(read(join(root, 'README.md'))).length).toBeGreaterThan(20);
    expect(docs.flatMap((page) => linksOf(read(join(root, page)))).length).toBeGreaterThan(40);
  });

  test.each(PAGES)('every relative link and #anchor of %s resolves', (page) => {
    const wrong = linksOf(read(join(root, page)))
      .map((l) => ({ ...l, why: broken(page, l.href) }))
      .filter((l) => l.why !== undefined)
      .map((l) => `${page}:${l.line} ${l.href}: ${l.why}`);
    expect(wrong).toEqual([]);
  });

  test('anchors are made as GitHub makes them', () => {
    expect(slug('Taking UI edits back (export --into and --only)')).toBe(
      'taking-ui-edits-back-export---into-and---only',
    );
    expect(slug('wsc apply [PLANFILE]')).toBe('wsc-apply-planfile');
    expect(slug('wsc.yaml')).toBe('wscyaml');
    expect(slug('Seed / state format (SeedState, JSON)')).toBe('seed--state-format-seedstate-json');
    expect(slug('snake_case and Ünïcode')).toBe('snake_case-and-ünïcode');
    expect([...anchorsOf('# A\n\n## `b` c\n\n## A\n\n## b c\n')]).toEqual(['a', 'b-c', 'a-1', 'b-c-1']);
  });

  test('a broken link or anchor is found', () => {
    expect(broken('README.md', 'docs/no-such-page.md')).toMatch(/does not exist/);
    expect(broken('README.md', '#no-such-heading')).toMatch(/no heading of README.md/);
    expect(broken('docs/commands.md', 'bundle.md#no-such-heading')).toMatch(/docs\/bundle.md/);
    expect(broken('docs/commands.md', 'bundle.md#folders')).toBeUndefined();
    expect(broken('README.md', 'https://example.com/#x')).toBeUndefined();
  });
});
