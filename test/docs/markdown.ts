// Reading the repository's markdown as GitHub shows it: the links of a page
// (found by markdown-it, as a renderer finds them, not by a regular
// expression) and the anchors its headings get.
import { readFileSync } from 'node:fs';
import MarkdownIt from 'markdown-it';

const md = new MarkdownIt({ html: true });
type Token = ReturnType<typeof md.parse>[number];

export interface Link {
  href: string;
  line: number;
}

function inlineTokens(text: string): { token: Token; line: number }[] {
  return md
    .parse(text, {})
    .filter((t) => t.type === 'inline')
    .flatMap((t) => (t.children ?? []).map((token) => ({ token, line: (t.map?.[0] ?? 0) + 1 })));
}

/** Every link and image target of a markdown text, with the line it starts on. */
export function linksOf(text: string): Link[] {
  return inlineTokens(text).flatMap(({ token, line }) => {
    const href =
      token.type === 'link_open' ? token.attrGet('href') : token.type === 'image' ? token.attrGet('src') : null;
    return href === null ? [] : [{ href: String(href), line }];
  });
}

/**
 * GitHub's anchor for a heading's text (github-slugger's rule): lower case,
 * every character but letters, marks, numbers, connector punctuation, space
 * and `-` dropped, each space a `-`; a repeated anchor gets `-1`, `-2`….
 */
export function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of a markdown text's headings, as GitHub makes them. */
export function anchorsOf(text: string): Set<string> {
  const tokens = md.parse(text, {});
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  tokens.forEach((t, i) => {
    if (t.type !== 'heading_open') return;
    // The heading's text as rendered: code spans keep their content, markup goes.
    const plain = (tokens[i + 1]?.children ?? [])
      .filter((c) => c.type === 'text' || c.type === 'code_inline')
      .map((c) => c.content)
      .join('');
    const base = slug(plain.trim());
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  });
  return anchors;
}

/** The part of a page under `## title`, up to the next `## ` (a page has one `# ` title, so no higher one). */
export function section(text: string, title: string): string {
  const start = text.indexOf(`\n## ${title}\n`);
  if (start === -1) throw new Error(`no "## ${title}" section`);
  const end = text.indexOf('\n## ', start + 1);
  return text.slice(start, end === -1 ? undefined : end);
}

export function read(file: string): string {
  return readFileSync(file, 'utf8');
}
