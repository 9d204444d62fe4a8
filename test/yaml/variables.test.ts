import { describe, expect, it } from 'vitest';
import { hasVariables, interpolate, type VarLookup } from '../../src/yaml/variables.js';
import { closest, levenshtein } from '../../src/domain/suggest.js';

const lookup: VarLookup = (ns, name) => {
  const table: Record<string, Record<string, unknown>> = {
    vars: { n: 7, s: 'x', t: true, nil: null, obj: { a: 1 } },
    env: { HOME: '/h' },
  };
  return Object.hasOwn(table[ns]!, name) ? { found: true, value: table[ns]![name] } : { found: false };
};

describe('interpolate', () => {
  it.each([
    ['plain', 'plain', false],
    ['${vars.n}', 7, true],
    ['${vars.t}', true, true],
    ['${vars.nil}', null, true],
    ['${vars.obj}', { a: 1 }, true],
    ['n=${vars.n}', 'n=7', true],
    ['${vars.s}${vars.n}', 'x7', true],
    ['${vars.obj}!', '{"a":1}!', true],
    ['${env.HOME}/x', '/h/x', true],
    ['$${vars.n}', '${vars.n}', true],
    ['cost: $5', 'cost: $5', false],
    ['{FILTER_PARAMS.x}', '{FILTER_PARAMS.x}', false],
  ])('%s -> %j', (text, value, changed) => {
    expect(interpolate(text, lookup)).toEqual({ value, problems: [] });
    expect(hasVariables(text)).toBe(changed);
  });

  it.each([
    ['${vars.missing}', [{ kind: 'undefined', ref: '${vars.missing}', ns: 'vars', name: 'missing', index: 0 }]],
    ['a ${env.NOPE} b', [{ kind: 'undefined', ref: '${env.NOPE}', ns: 'env', name: 'NOPE', index: 2 }]],
    ['${other.x}', [{ kind: 'malformed', ref: '${other.x}', index: 0 }]],
    ['x ${} y', [{ kind: 'malformed', ref: '${}', index: 2 }]],
    ['${vars.n', [{ kind: 'malformed', ref: '${vars.n', index: 0 }]],
    ['a ${vars.n} b ${oops', [{ kind: 'malformed', ref: '${oops', index: 14 }]],
  ])('%s is a problem', (text, problems) => {
    expect(interpolate(text, lookup).problems).toEqual(problems);
  });
});

describe('did you mean', () => {
  it.each([
    ['nmae', ['name', 'slug'], 'name'],
    ['baseURL', ['baseUrl', 'token'], 'baseUrl'],
    ['deployment', ['deploymentId', 'id'], 'deploymentId'],
    ['workbook', ['Workbook', 'Report'], 'Workbook'],
    ['zzz', ['name', 'slug'], undefined],
    ['id', ['h', 'w'], undefined],
  ])('%s among %j -> %s', (word, known, expected) => {
    expect(closest(word, known)).toBe(expected);
  });

  it('levenshtein', () => {
    expect([levenshtein('kitten', 'sitting'), levenshtein('', 'ab'), levenshtein('same', 'same')]).toEqual([3, 2, 0]);
  });
});
