// Random damage to YAML text, for the fuzz tests of the loaders
// (load.fuzz.test.ts, config/wsc-yaml.fuzz.test.ts): inserted characters that
// mean something in YAML (and tabs, CRs, BOMs, NULs, variables, references),
// deleted runs, and duplicated, dropped or re-indented lines.
import fc from 'fast-check';

const PIECES = [
  ' ',
  '  ',
  '\n',
  ':',
  ': ',
  '- ',
  '-',
  '#',
  '{',
  '}',
  '[',
  ']',
  ',',
  '"',
  "'",
  '&a ',
  '*a',
  '!!str ',
  '!x ',
  '|',
  '>',
  '|+',
  '? ',
  '<<: ',
  '---\n',
  '...\n',
  '%YAML 1.2\n',
  '\t',
  '\r',
  '\r\n',
  '\u0000',
  '\uFEFF',
  '\u2028',
  '\\',
  'é',
  '0',
  '1.5e3',
  'null',
  'true',
  '~',
  '${vars.currency}',
  '${vars.nope}',
  '${env.HOME}',
  '${',
  '$${',
  '{ $report: nope00000001 }',
  '{ $workbook: nope }',
  '__proto__: 1\n',
  'kind: Report\n',
  'kind: Nope\n',
  'slug: x\n',
  'publicId: dup000000001\n',
  '${env.WSC_TOKEN}',
  '${env.WSC_STAGING_TOKEN}',
];

export type Edit =
  | { op: 'insert'; at: number; piece: number }
  | { op: 'delete'; at: number; len: number }
  | { op: 'dupLine'; line: number }
  | { op: 'indent'; line: number; by: number }
  | { op: 'dropLine'; line: number };

export const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ op: fc.constant('insert' as const), at: fc.nat(), piece: fc.nat(PIECES.length - 1) }),
  fc.record({ op: fc.constant('delete' as const), at: fc.nat(), len: fc.integer({ min: 1, max: 12 }) }),
  fc.record({ op: fc.constant('dupLine' as const), line: fc.nat() }),
  fc.record({ op: fc.constant('indent' as const), line: fc.nat(), by: fc.integer({ min: -4, max: 4 }) }),
  fc.record({ op: fc.constant('dropLine' as const), line: fc.nat() }),
);

/** `text` with one edit; positions wrap around the text's length. */
export function applyEdit(text: string, e: Edit): string {
  if (e.op === 'insert') {
    const at = e.at % (text.length + 1);
    return text.slice(0, at) + PIECES[e.piece] + text.slice(at);
  }
  if (e.op === 'delete') {
    const at = e.at % (text.length + 1);
    return text.slice(0, at) + text.slice(at + e.len);
  }
  const lines = text.split('\n');
  const i = e.line % lines.length;
  if (e.op === 'dupLine') lines.splice(i, 0, lines[i]!);
  else if (e.op === 'dropLine') lines.splice(i, 1);
  else lines[i] = e.by >= 0 ? ' '.repeat(e.by) + lines[i]! : lines[i]!.replace(new RegExp(`^ {0,${-e.by}}`), '');
  return lines.join('\n');
}
