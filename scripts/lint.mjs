// `npm run lint`: eslint (eslint.config.js), `prettier --check`, the dependency
// rules between the files of src/ (dependency-cruiser: .dependency-cruiser.cjs
// over every import, .dependency-cruiser-static.cjs over the imports that load
// a module) and unused files, exports and dependencies (knip: knip.jsonc).
// Every tool runs even when one before it fails, so one run lists every
// problem; the last line names those that failed. Arguments go to eslint;
// with `--fix` (`npm run lint -- --fix`) eslint fixes what it can and
// prettier rewrites the files instead of checking them (the other two report
// only: what they find is fixed by hand).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = (name) => join(root, 'node_modules', '.bin', name);
const args = process.argv.slice(2);
const fix = args.includes('--fix');
const started = performance.now();

const run = (cmd, argv) => {
  const r = spawnSync(cmd, argv, { cwd: root, stdio: 'inherit' });
  // A tool missing from node_modules (a checkout not installed since it was added) fails with the reason.
  if (r.error) console.error(`cannot run ${cmd}: ${r.error.message} (run npm ci)`);
  return r.status ?? 1;
};
const depcruise = (config, ...paths) => run(bin('depcruise'), ['--config', config, '--output-type', 'err', ...paths]);
const steps = {
  eslint: () => run(bin('eslint'), ['--max-warnings', '0', ...args, '.']),
  prettier: () => run(bin('prettier'), [fix ? '--write' : '--check', '--log-level', fix ? 'warn' : 'log', '.']),
  'dependency-cruiser': () =>
    Math.max(
      depcruise('.dependency-cruiser.cjs', 'src'),
      depcruise('.dependency-cruiser-static.cjs', 'src/commands/validate.ts'),
    ),
  knip: () => run(bin('knip'), ['--no-progress']),
};

const failed = [];
for (const [name, step] of Object.entries(steps)) {
  console.log(`\n== ${name}`);
  const status = step();
  console.log(status === 0 ? `${name}: passed` : `${name}: FAILED`);
  if (status !== 0) failed.push(name);
}

const seconds = ((performance.now() - started) / 1000).toFixed(1);
console.log(failed.length ? `lint failed (${failed.join(', ')}) in ${seconds} s` : `lint passed in ${seconds} s`);
process.exitCode = failed.length ? 1 : 0;
