// How src/commands is kept (issue 33): commands read top to bottom (static
// imports; the two lazy imports are validate's --semantic-check, which keeps
// the HTTP client out of `wsc validate`, and plan's --pictures, which keeps the
// preview's modules out of a plan without pictures: issue 41), and the path from flags to a plan
// is spelled out once, in commands/steps.ts and commands/configure.ts, that
// every command composes. (Files under 450 lines: eslint's max-lines.)
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const src = resolve(import.meta.dirname, '../../src');
const commands = join(src, 'commands');
const read = (file: string) => readFileSync(file, 'utf8');
const commandFiles = readdirSync(commands)
  .filter((n) => n.endsWith('.ts'))
  .map((n) => ({ name: n, text: read(join(commands, n)) }));

/** Where `pattern` occurs in the command files, as `file: line`. */
function uses(pattern: RegExp): string[] {
  return commandFiles.flatMap(({ name, text }) =>
    text
      .split('\n')
      .filter((line) => !/^\s*(\/\/|\*|\/\*)/.test(line) && pattern.test(line))
      .map((line) => `${name}: ${line.trim()}`),
  );
}

describe('src/commands', () => {
  it('imports statically, but validate its --semantic-check module and plan its --pictures drawing', () => {
    expect(uses(/\bimport\(/).filter((u) => !u.includes("typeof import('yaml')"))).toEqual([
      "plan.ts: const { writePlanPictures } = await import('./preview-drawing.js');",
      "validate.ts: const { semanticCheckDiagnostics } = await import('./semantic.js');",
    ]);
  });

  it('loads a valid bundle, resolves the configuration and plans in one place each', () => {
    expect(uses(/\bloadValidBundle\(/).map((u) => u.split(':')[0])).toEqual(['steps.ts']);
    expect(uses(/\bresolveConfig\(/).map((u) => u.split(':')[0])).toEqual(['configure.ts']);
    expect(uses(/(^|[^.\w])plan\(/).map((u) => u.split(':')[0])).toEqual(['steps.ts']);
  });
});
