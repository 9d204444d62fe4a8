// The error codes are one list (ERROR_CODES in src/errors.ts): every code
// src/ throws is in it under the group of its class and exit code, every
// code in it is thrown somewhere, and docs/errors.md's table says the same.
// The types hold calls through helpers (planError, rewrap); this reads the
// constructions themselves, so a code cast past the types is still caught.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { afterEach, describe, expect, test, vi } from 'vitest';
import {
  ApiError,
  ConfigError,
  ERROR_CODES,
  EXIT,
  InternalError,
  UsageError,
  WscError,
  type ErrorCode,
} from '../src/errors.js';
import { report } from '../src/main.js';
import { readSettings } from '../src/env.js';
import { decideStyle } from '../src/render/style.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const GROUPS = Object.entries(ERROR_CODES) as [string, { exit: number; codes: readonly string[] }][];
const ALL = GROUPS.flatMap(([, g]) => g.codes);
const groupOf = (code: string) => GROUPS.find(([, g]) => g.codes.includes(code));

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sourceFiles(p) : e.name.endsWith('.ts') ? [p] : [];
  });
}

interface Thrown {
  cls: string;
  code: string;
  /** The EXIT member a plain WscError is given. */
  exit?: string;
  at: string;
}

/** The classes whose constructions carry a code. */
const CODED = ['WscError', 'ConfigError', 'UsageError', 'ApiError'];
/** A file that constructs none of them by name has nothing to parse (the parse is most of this test's time). */
const constructs = new RegExp(`\\bnew\\s+(${CODED.join('|')})\\b`);

/** Codes given as literals where an error of the hierarchy is constructed. */
function thrownCodes(): Thrown[] {
  const out: Thrown[] = [];
  for (const file of sourceFiles(path.join(ROOT, 'src'))) {
    const text = fs.readFileSync(file, 'utf8');
    if (!constructs.test(text)) continue;
    const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const literal = (n: ts.Node | undefined) =>
      n && (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n)) ? n.text : undefined;
    const codeMember = (n: ts.Node | undefined) => {
      if (!n || !ts.isObjectLiteralExpression(n)) return undefined;
      const p = n.properties.find((m) => ts.isPropertyAssignment(m) && m.name.getText() === 'code');
      return p && ts.isPropertyAssignment(p) ? literal(p.initializer) : undefined;
    };
    const visit = (n: ts.Node): void => {
      if (ts.isNewExpression(n) && ts.isIdentifier(n.expression)) {
        const cls = n.expression.text;
        const args = n.arguments ?? [];
        const at = `${path.relative(ROOT, file)}:${sf.getLineAndCharacterOfPosition(n.getStart()).line + 1}`;
        let code: string | undefined;
        let exit: string | undefined;
        if (cls === 'WscError' || cls === 'ConfigError') code = literal(args[0]);
        if (cls === 'WscError' && args[2] && ts.isPropertyAccessExpression(args[2])) exit = args[2].name.text;
        if (cls === 'UsageError') code = codeMember(args[1]);
        if (cls === 'ApiError') code = codeMember(args[0]);
        if (code !== undefined) out.push({ cls, code, at, ...(exit ? { exit } : {}) });
      }
      ts.forEachChild(n, visit);
    };
    visit(sf);
  }
  return out;
}

describe('the error codes', () => {
  test('no code is in two groups, and each is a stable lower_snake_case word', () => {
    expect(new Set(ALL).size).toBe(ALL.length);
    for (const c of ALL) expect(c).toMatch(/^[a-z][a-z0-9_]*$/);
  });

  test('every code src/ throws is listed, in the group of its class and exit code', () => {
    const thrown = thrownCodes();
    expect(thrown.length).toBeGreaterThan(50);
    const groupOfClass: Record<string, string> = { UsageError: 'usage', ConfigError: 'config', ApiError: 'api' };
    const wrong = thrown.flatMap((t) => {
      const group = groupOf(t.code);
      if (!group) return [`${t.at}: ${t.code} is not in ERROR_CODES`];
      const want = groupOfClass[t.cls];
      if (want && group[0] !== want) return [`${t.at}: ${t.code} is a ${t.cls} but listed under ${group[0]}`];
      if (t.exit && EXIT[t.exit as keyof typeof EXIT] !== group[1].exit) {
        return [`${t.at}: ${t.code} ends with EXIT.${t.exit} but its group ${group[0]} says exit ${group[1].exit}`];
      }
      return [];
    });
    expect(wrong).toEqual([]);
  });

  test('every listed code is used in src/ (no stale entry)', () => {
    const errorsTs = path.join(ROOT, 'src/errors.ts');
    const text = sourceFiles(path.join(ROOT, 'src'))
      .map((f) => {
        const t = fs.readFileSync(f, 'utf8');
        // The list itself does not count as a use.
        return f === errorsTs ? t.replace(/export const ERROR_CODES = \{[\s\S]*?\n\} as const;/, '') : t;
      })
      .join('\n');
    expect(ALL.filter((c) => !text.includes(`'${c}'`))).toEqual([]);
  });

  test("docs/errors.md's table lists the same groups, exit codes and codes", () => {
    const page = fs.readFileSync(path.join(ROOT, 'docs/errors.md'), 'utf8');
    const start = page.indexOf('\n## Error codes\n');
    expect(start).toBeGreaterThan(-1);
    const end = page.indexOf('\n## ', start + 1);
    const section = page.slice(start, end === -1 ? undefined : end);
    const rows = section
      .split('\n')
      .filter((l) => /^\| [a-z]+ \| \d \|/.test(l))
      .map((l) => {
        const [group, exit, , codes] = l.split(' | ').map((c) => c.replace(/^\| |\|$/g, '').trim());
        const listed = [...codes!.matchAll(/`([^`]+)`/g)].map((m) => m[1]!).filter((c) => c !== 'http_<status>');
        return { group, exit: Number(exit), codes: listed };
      });
    expect(rows).toEqual(GROUPS.map(([group, g]) => ({ group, exit: g.exit, codes: [...g.codes] })));
  });

  test('an error status becomes http_<status>; the classes carry their own exit codes', () => {
    const api = new ApiError({ method: 'GET', path: '/x', status: 404 }, 'not found');
    expect(api.code).toBe('http_404' satisfies ErrorCode);
    expect(new UsageError('x').code).toBe('usage');
    expect(new ConfigError('token_missing', 'x').exitCode).toBe(ERROR_CODES.config.exit);
    expect(new InternalError('x').exitCode).toBe(ERROR_CODES.internal.exit);
  });
});

describe('how main prints an error', () => {
  const style = decideStyle({ isTTY: false, columns: 80, settings: readSettings({}), noColorFlag: true });
  afterEach(() => vi.restoreAllMocks());

  async function printed(e: unknown): Promise<{ code: number; text: string }> {
    let text = '';
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      text += String(chunk);
      return true;
    });
    const code = await report(e, style);
    vi.restoreAllMocks();
    return { code, text };
  }

  test('an InternalError prints its message, its stack and a line saying it is a bug', async () => {
    const { code, text } = await printed(new InternalError('two requests with the id r1'));
    expect(code).toBe(EXIT.failure);
    expect(text).toMatch(/^internal error: two requests with the id r1\n/);
    expect(text).toMatch(/\n {4}at .*errors\.test\.ts/);
    expect(text).toContain('This is a bug in wsc. Please report it with the command you ran.');
  });

  test('a known error prints its message and code, no stack', async () => {
    const { code, text } = await printed(new WscError('too_many_deletes', 'Too many deletes.', EXIT.failure));
    expect(code).toBe(EXIT.failure);
    expect(text).toBe('Error: Too many deletes. [too_many_deletes]\n');
  });
});
