#!/usr/bin/env node
// `npm run try`: the main job of wsc end to end on the embedded default —
// validate, plan, apply, plan again (empty) — on a copy of fixtures/example,
// with no server to start and no token to find. Prints each command it runs.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'wsc-try-'));
cpSync(join(root, 'fixtures/example'), dir, { recursive: true });

const steps = [['validate'], ['plan'], ['apply', '--auto-approve'], ['plan', '--detailed-exitcode']];
for (const args of steps) {
  const shown = `wsc ${args.join(' ')} --dir ${dir}`;
  process.stdout.write(`\n$ ${shown}\n`);
  const r = spawnSync(process.execPath, [join(root, 'bin/wsc.js'), ...args, '--dir', dir], { stdio: 'inherit' });
  if (r.status !== 0) {
    process.stderr.write(`\n\`${shown}\` exited ${r.status}\n`);
    process.exit(r.status ?? 1);
  }
}
process.stdout.write(`\nDone. The bundle and the embedded deployment's state are in ${dir}\n`);
