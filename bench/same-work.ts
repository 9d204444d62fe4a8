// The same-work script the benchmark holds `wsc plan` to (DESIGN §9): what a
// user could write instead of wsc to do the same checks and reads. It reads
// every bundle file, parses it with js-yaml, checks each document with the
// zod schema of its kind (the very schemas wsc uses, src/domain/bundle-schema),
// and pages the three lists with fetch (bench/lists.mjs), the bundle and the
// lists side by side, as any script would. A file that does not parse or a
// document its schema refuses makes it print the problems and exit 1.
//
// It prints: documents checked, reports, workbooks and user attributes read.
// `--sequential` loads the bundle first and reads the lists after (the bench
// uses it to measure what doing the two side by side gains).
//
// bench/run.ts bundles it with esbuild into one file (bench/build-scripts.ts),
// as wsc itself is bundled, so neither pays for loading modules one by one.
//
//   node same-work.mjs DIR BASE_URL DEPLOYMENT PAGE_SIZE [--sequential]   (token in WSC_TOKEN)
import { readFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { SCHEMA_OF_KIND } from '../src/domain/bundle-schema/index.js';
import { readLists } from './lists.mjs';

const args = process.argv.slice(2);
const sequential = args.includes('--sequential');
const [dir, base, deployment, pageSize] = args.filter((a) => a !== '--sequential') as [string, string, string, string];
const token = process.env['WSC_TOKEN'];

/** The problems of one file (none when every document passes its kind's schema). */
function check(file: string, text: string, docs: unknown[]): string[] {
  let parsed: unknown[];
  try {
    parsed = yaml.loadAll(text);
  } catch (e) {
    return [`${file}: ${(e as Error).message}`];
  }
  const problems: string[] = [];
  for (const doc of parsed) {
    const kind = (doc as { kind?: unknown } | null)?.kind;
    const schema = typeof kind === 'string' ? SCHEMA_OF_KIND[kind as keyof typeof SCHEMA_OF_KIND] : undefined;
    if (!schema) {
      problems.push(`${file}: unknown kind ${JSON.stringify(kind)}`);
      continue;
    }
    const result = schema.safeParse(doc);
    if (result.success) docs.push(result.data);
    else for (const i of result.error.issues) problems.push(`${file}: ${i.path.join('.')}: ${i.message}`);
  }
  return problems;
}

async function loadBundle(root: string): Promise<unknown[]> {
  const names = (await readdir(root, { recursive: true })).filter(
    (n) => /\.ya?ml$/.test(n) && n !== 'wsc.yaml' && !n.split(/[\\/]/).some((part) => part.startsWith('.')),
  );
  const docs: unknown[] = [];
  // Read with readFileSync, one file after another: for thousands of small files that costs far less CPU than
  // readFile for every file at once (docs/performance.md), so the comparison does not flatter wsc.
  const all = names.sort().flatMap((n) => check(n, readFileSync(join(root, n), 'utf8'), docs));
  if (all.length > 0) throw new Error(`the bundle is not valid:\n${all.join('\n')}`);
  return docs;
}

try {
  const [docs, lists] = sequential
    ? [await loadBundle(dir), await readLists(base, deployment, pageSize, token)]
    : await Promise.all([loadBundle(dir), readLists(base, deployment, pageSize, token)]);
  console.log([docs.length, ...lists.map((l) => l.length)].join(' '));
} catch (e) {
  console.error((e as Error).message);
  process.exitCode = 1;
}
