#!/usr/bin/env node
// `npm run try`: the main job of wsc end to end on the embedded default, on a
// copy of fixtures/example, with no server to start and no token to find:
// validate, a first apply (compact: its plan is every resource created), then
// a change as a pull request would make it (a widget resized, a chart drawn
// as a line) planned in full, applied (compact), the final plan, empty, and
// one picture of the changed dashboard drawn with data, named.
// Prints each command it runs and each edit it makes, and ends with the
// README's next step: the copy stays, so `node bin/wsc.js plan --dir <copy>` after
// an edit of it shows that edit alone. Not `npx wsc`: in the clone npx would
// install the clone into its cache and run its `prepare` (a rebuild of dist/).
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'wsc-try-'));
cpSync(join(root, 'fixtures/example'), dir, { recursive: true });

/** Runs wsc on the copy, the command shown first; `{ quiet: true }` last keeps its stdout (a list of files) back. */
function wsc(...args) {
  const quiet = typeof args.at(-1) === 'object' ? args.pop().quiet : false;
  const shown = `wsc ${args.join(' ')} --dir ${dir}`;
  process.stdout.write(`\n$ ${shown}\n`);
  const stdio = quiet ? ['inherit', 'ignore', 'inherit'] : 'inherit';
  const r = spawnSync(process.execPath, [join(root, 'bin/wsc.js'), ...args, '--dir', dir], { stdio });
  if (r.status !== 0) {
    process.stderr.write(`\n\`${shown}\` exited ${r.status}\n`);
    process.exit(r.status ?? 1);
  }
}

function edit(file, from, to) {
  const path = join(dir, file);
  const text = readFileSync(path, 'utf8');
  if (!text.includes(from)) throw new Error(`${file} no longer holds ${from}`);
  writeFileSync(path, text.replace(from, to));
  process.stdout.write(`\n# edit ${file}: ${from} → ${to}\n`);
}

wsc('validate');
wsc('apply', '--compact', '--auto-approve');
edit('workbooks/sales-pipeline.yaml', 'position: { x: 6, y: 2, w: 6, h: 4 }', 'position: { x: 6, y: 2, w: 6, h: 3 }');
edit('workbooks/sales-pipeline.yaml', 'visualization: bar', 'visualization: line');
wsc('plan');
wsc('apply', '--compact', '--auto-approve');
wsc('plan', '--detailed-exitcode');
// The changed dashboard as it will look, its charts drawn with the embedded deployment's data (made up
// by the emulator from its model): one picture named, the rest beside it.
const pictures = join(dir, 'pictures');
wsc('preview', '--out', pictures, '--with-data', { quiet: true });
process.stdout.write(`A picture with data: ${join(pictures, 'sales-pipeline.lg.png')} (and its .svg)\n`);
process.stdout.write(`\nDone. The bundle and the embedded deployment's state are in ${dir}\n`);
// The README's next step, spelt out with this run's directory: the copy is
// applied, so a plan of it shows the reader's edit and nothing else.
const file = join(dir, 'reports', 'mrr-trend.yaml');
process.stdout.write(`\nYour turn: edit ${file} (its title, say), then run\n  node bin/wsc.js plan --dir ${dir}\n`);
