import { describe, expect, it } from 'vitest';
import type { Folder } from '../../src/domain/wire.js';
import { plan } from '../../src/core/plan/index.js';
import { ctx, desired, dReport, dWorkbook, live, lReport, lWorkbook } from './builders.js';

const folder = (id: number, name: string, parentId: number | null = null) => ({ id, name, parentId }) as Folder;

describe('plan: folders by path', () => {
  it('plans missing folders as creates, parents first, and points resources at them (known after apply)', () => {
    const wb = { ...dWorkbook('sales', { name: 'Sales' }), folder: ['Finance', 'Revenue'] };
    const rep = { ...dReport('revqZ1x8Kp0a', { name: 'R' }), folder: ['Finance'] };
    const p = plan(desired({ workbooks: [wb], reports: [rep] }), live({ folders: [] }), ctx());
    expect(p.changes.map((c) => [c.address, c.kind, c.actions])).toEqual([
      ['folder/Finance', 'folder', ['create']],
      ['folder/Finance/Revenue', 'folder', ['create']],
      ['workbook/sales', 'workbook', ['create']],
      ['report/revqZ1x8Kp0a', 'report', ['create']],
    ]);
    const reqs = p.changes.flatMap((c) => c.requests);
    expect(reqs[0]!.operation).toEqual({ op: 'createFolder', name: 'Finance', parentId: null });
    expect(reqs[1]!.operation).toEqual({ op: 'createFolder', name: 'Revenue', parentId: { $folder: 'Finance' } });
    expect(reqs[1]!.dependsOn).toEqual(['folder/Finance#create']);
    expect(reqs[2]!.operation).toEqual({
      op: 'upsertWorkbook',
      slug: 'sales',
      body: { name: 'Sales', folderId: { $folder: 'Finance/Revenue' } },
    });
    expect(reqs[2]!.dependsOn).toEqual(['folder/Finance/Revenue#create']);
    expect(reqs[3]!.dependsOn).toEqual(['folder/Finance#create']);
    expect(p.changes[2]!.changes).toContainEqual({ path: 'folder', after: 'Finance/Revenue' });
    expect(p.summary.create).toBe(4);
  });

  it('resolves existing folders to their ids: no change when the resource is already there', () => {
    const wb = { ...dWorkbook('sales', {}), folder: ['Finance', 'Rev/enue'] };
    const p = plan(
      desired({ workbooks: [wb] }),
      live({
        folders: [folder(10, 'Finance'), folder(11, 'Rev/enue', 10)],
        workbooks: [lWorkbook(5, 'sales', { folderId: 11 })],
      }),
      ctx(),
    );
    expect(p.changes.map((c) => c.actions)).toEqual([['noop']]);
  });

  it('a move between folders is one line, `folder: A → B`, sending the new folderId', () => {
    const wb = { ...dWorkbook('sales', {}), folder: ['B'] };
    const p = plan(
      desired({ workbooks: [wb] }),
      live({ folders: [folder(1, 'A'), folder(2, 'B')], workbooks: [lWorkbook(5, 'sales', { folderId: 1 })] }),
      ctx(),
    );
    expect(p.changes[0]!.changes).toEqual([{ path: 'folder', before: 'A', after: 'B' }]);
    expect(p.changes[0]!.requests[0]!.operation).toEqual({
      op: 'upsertWorkbook',
      slug: 'sales',
      body: { folderId: 2 },
    });
    // A was left empty by the move: reported, never deleted.
    expect(p.warnings).toEqual([expect.objectContaining({ code: 'folder-left-empty', address: 'folder/A' })]);
  });

  it('`folder: /` is the root; an absent folder is not managed', () => {
    const p = plan(
      desired({ workbooks: [{ ...dWorkbook('a', {}), folder: [] }, dWorkbook('b', {})] }),
      live({
        folders: [folder(1, 'A')],
        workbooks: [lWorkbook(5, 'a', { folderId: 1 }), lWorkbook(6, 'b', { folderId: 1 })],
      }),
      ctx(),
    );
    expect(p.changes[0]!.changes).toEqual([{ path: 'folder', before: 'A', after: '/' }]);
    expect(p.changes[0]!.requests[0]!.operation).toMatchObject({ body: { folderId: null } });
    expect(p.changes[1]!.actions).toEqual(['noop']);
  });

  it('two folders of one name under one parent: the lower id, and a warning naming both', () => {
    const rep = { ...dReport('revqZ1x8Kp0a', {}), folder: ['Dup'] };
    const p = plan(
      desired({ reports: [rep] }),
      live({ folders: [folder(9, 'Dup'), folder(4, 'Dup')], reports: [lReport(7, 'revqZ1x8Kp0a', { folderId: 4 })] }),
      ctx(),
    );
    expect(p.changes.map((c) => c.actions)).toEqual([['noop']]);
    expect(p.warnings).toEqual([
      {
        code: 'duplicate-folder',
        address: 'folder/Dup',
        message: expect.stringMatching(
          /2 folders named "Dup" under \/ \(ids 4, 9\): `Dup` is the lower id, 4; `Dup\[2\]` names the other/,
        ),
      },
    ]);
  });

  it('--target of a resource keeps the folder creates it waits for', () => {
    const p = plan(
      desired({ workbooks: [{ ...dWorkbook('a', {}), folder: ['X', 'Y'] }, dWorkbook('b', {})] }),
      live({}),
      ctx({ targets: ['workbook/a'] }),
    );
    expect(p.changes.map((c) => c.address)).toEqual(['folder/X', 'folder/X/Y', 'workbook/a']);
  });
});
