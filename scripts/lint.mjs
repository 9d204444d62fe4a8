// `npm run lint`: eslint (eslint.config.js), then `prettier --check`; both
// run even when the first fails, so one run lists every problem. Arguments go
// to eslint; with `--fix` (`npm run lint -- --fix`) eslint fixes what it can
// and prettier rewrites the files instead of checking them.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = (name) => join(root, 'node_modules', '.bin', name);
const args = process.argv.slice(2);
const fix = args.includes('--fix');
const started = performance.now();

const run = (cmd, argv) => spawnSync(cmd, argv, { cwd: root, stdio: 'inherit' }).status ?? 1;
const eslint = run(bin('eslint'), ['--max-warnings', '0', ...args, '.']);
const prettier = run(bin('prettier'), [fix ? '--write' : '--check', '--log-level', fix ? 'warn' : 'log', '.']);

const seconds = ((performance.now() - started) / 1000).toFixed(1);
const failed = [eslint !== 0 && 'eslint', prettier !== 0 && 'prettier'].filter(Boolean);
console.log(failed.length ? `lint failed (${failed.join(', ')}) in ${seconds} s` : `lint passed in ${seconds} s`);
process.exitCode = failed.length ? 1 : 0;
