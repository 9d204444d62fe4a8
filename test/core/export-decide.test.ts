// Export's decisions around the transform (core/export/decide.ts): which way
// the flags ask for, the warnings of unreadable items, the warnings --into keeps.
import { describe, expect, it } from 'vitest';
import { exportWay, intoWarnings, unreadableWarnings } from '../../src/core/export/decide.js';
import type { ExportWarning } from '../../src/core/export/types.js';
import { UsageError } from '../../src/errors.js';

describe('exportWay', () => {
  it('tells the three ways apart, --only before --into', () => {
    expect(exportWay({ out: 'snap', workbook: [] })).toEqual({ way: 'out', dir: 'snap' });
    expect(exportWay({ out: 'snap', workbook: ['a'] })).toEqual({ way: 'out', dir: 'snap' });
    expect(exportWay({ into: 'b', workbook: [] })).toEqual({ way: 'into', dir: 'b' });
    expect(exportWay({ into: 'b', workbook: [], only: [] })).toEqual({ way: 'into', dir: 'b' });
    expect(exportWay({ into: 'b', workbook: [], only: ['report/x'] })).toEqual({ way: 'only', dir: 'b' });
    expect(exportWay({ out: 'b', workbook: [], only: ['report/x'] })).toEqual({ way: 'only', dir: 'b' });
  });

  it('refuses both directories, neither, and --workbook with --into', () => {
    expect(() => exportWay({ out: 'a', into: 'b', workbook: [] })).toThrow(/give one of --out and --into/);
    expect(() => exportWay({ workbook: [] })).toThrow(UsageError);
    expect(() => exportWay({ workbook: [] })).toThrow(/export needs --out DIR/);
    expect(() => exportWay({ into: 'b', workbook: ['w'] })).toThrow(/--workbook cannot be used with --into/);
  });
});

describe('unreadableWarnings', () => {
  it('names each item by kind, id and identity, with what the server sent', () => {
    const w = unreadableWarnings([
      { kind: 'report', id: 7, identity: 'rep_1', why: 'a name of 3 MiB' },
      { kind: 'workbook', why: 'no id' },
    ]);
    expect(w).toEqual([
      { code: 'resource-skipped', message: 'report 7 (rep_1) not exported: the server sent a name of 3 MiB.' },
      { code: 'resource-skipped', message: 'workbook not exported: the server sent no id.' },
    ]);
  });
});

describe('intoWarnings', () => {
  it("keeps the new files' warnings and the export's own but the per-deployment one", () => {
    const all: ExportWarning[] = [
      { code: 'per-deployment-ids', message: 'ids' },
      { code: 'user-attributes-unreadable', message: 'ua' },
      { code: 'field-dropped', message: 'new', file: 'reports/new.yaml' },
      { code: 'field-dropped', message: 'old', file: 'reports/old.yaml' },
    ];
    expect(intoWarnings(all, new Set(['reports/new.yaml'])).map((w) => w.message)).toEqual(['ua', 'new']);
  });
});
