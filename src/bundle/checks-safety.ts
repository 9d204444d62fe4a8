// Checks that keep a valid-looking bundle from failing at apply: workbook
// slugs that are safe as one segment of a request path, and references
// between reports that form a cycle (no order of creates could resolve them).
import type { Diagnostic } from '../errors.js';
import type { DocItem } from './checks.js';
import { posOf } from './checks.js';
import { isObject } from '../yaml/issues.js';
import { scanRefs, type FoundRef } from './refs.js';
import { escapedAll, visible } from '../visible.js';
import { INVISIBLE } from '../domain/unsafe-chars.js';
import { MAX_SLUG_LENGTH, slugProblem } from '../domain/slug.js';
import { folderLookalikes } from './checks-folders-alike.js';

const LOOKALIKE = /[\p{Script=Cyrillic}\p{Script=Greek}\p{Script=Armenian}\p{Script=Cherokee}]/u;

function shown(slug: string): string {
  return visible(escapedAll(slug, INVISIBLE));
}

function slugDiagnostics(item: DocItem): Diagnostic[] {
  const raw = item.value['slug'];
  if (typeof raw !== 'string') return [];
  const slug = raw.trim();
  // Only for a diagnostic: a position beyond the root's keys costs a second read of the file.
  const pos = () => posOf(item, ['slug'], 'value');
  const err = (message: string): Diagnostic => ({
    severity: 'error',
    rule: 'unsafe-slug',
    message,
    pos: pos(),
    hint:
      `A slug is one segment of a request path: letters, digits, \`-\`, ` +
      `\`_\` and \`.\` are safe; at most ${MAX_SLUG_LENGTH} characters.`,
  });
  switch (slugProblem(slug)) {
    case 'dots':
      return [err(`the slug \`${slug}\` would name another path of the API, not a workbook`)];
    case 'separator':
      return [
        err(`the slug ${JSON.stringify(shown(slug))} holds a \`/\` or \`\\\`, which would split the request path`),
      ];
    case 'control':
      return [err(`the slug ${JSON.stringify(shown(slug))} holds a control character`)];
    case 'length':
      return [err(`the slug is ${slug.length} characters long, over the ${MAX_SLUG_LENGTH} wsc allows`)];
    case undefined:
  }
  const warn = (message: string): Diagnostic => ({
    severity: 'warning',
    rule: 'confusable-slug',
    message,
    pos: pos(),
    hint: 'Two slugs that look the same would name two workbooks; use plain letters and digits.',
  });
  if (INVISIBLE.test(slug)) return [warn(`the slug "${shown(slug)}" holds an invisible character (shown as \\uXXXX)`)];
  if (LOOKALIKE.test(slug) && /[A-Za-z]/.test(slug))
    return [warn(`the slug "${shown(slug)}" mixes Latin letters with look-alike letters of another script`)];
  return [];
}

/** Every cycle of `{ $report }` references among the bundle's reports, once each, at its first reference. */
function referenceCycles(items: readonly DocItem[]): Diagnostic[] {
  type Edge = { item: DocItem; ref: FoundRef };
  const edges = new Map<string, Edge[]>();
  for (const item of items) {
    if (item.kind !== 'Report' || typeof item.value['publicId'] !== 'string' || !isObject(item.value['meta'])) continue;
    const refs: FoundRef[] = [];
    scanRefs(item.value['meta'], ['meta'], refs, []);
    const from = item.value['publicId'];
    const list = edges.get(from) ?? [];
    for (const ref of refs) if (ref.kind === 'report') list.push({ item, ref });
    edges.set(from, list);
  }
  const out: Diagnostic[] = [];
  const done = new Set<string>();
  const onPath = new Map<string, number>();
  // Iterative depth-first search: a long chain of references must not overflow the stack.
  for (const start of [...edges.keys()].sort()) {
    if (done.has(start)) continue;
    // The path from `start`, each report with the edge that reached it and the next of its own to follow.
    const path: { id: string; via?: Edge; next: number }[] = [{ id: start, next: 0 }];
    onPath.set(start, 0);
    while (path.length > 0) {
      const top = path[path.length - 1]!;
      const out1 = edges.get(top.id) ?? [];
      if (top.next >= out1.length) {
        path.pop();
        onPath.delete(top.id);
        done.add(top.id);
        continue;
      }
      const e = out1[top.next++]!;
      const target = e.ref.target;
      const at = onPath.get(target);
      if (at !== undefined) {
        const cycle = [...path.slice(at).map((p) => p.id), target];
        const first = path[at + 1]?.via ?? e;
        out.push({
          severity: 'error',
          rule: 'reference-cycle',
          message: `reports refer to each other in a cycle: ${cycle.map((id) => `report/${id}`).join(' → ')}`,
          pos: posOf(first.item, first.ref.path, 'value'),
          hint: 'A report needs the id of every report it refers to before it can be written; break the cycle.',
        });
        continue;
      }
      if (done.has(target) || !edges.has(target)) continue;
      onPath.set(target, path.length);
      path.push({ id: target, via: e, next: 0 });
    }
  }
  return out;
}

/** All of these (and the folder look-alikes of checks-folders-alike.ts), for every document that passed its schema. */
export function safetyChecks(items: readonly DocItem[], lookAlikes: 'allow' | 'error'): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const item of items) if (item.kind === 'Workbook') out.push(...slugDiagnostics(item));
  out.push(...referenceCycles(items));
  out.push(...folderLookalikes(items, lookAlikes));
  return out;
}
