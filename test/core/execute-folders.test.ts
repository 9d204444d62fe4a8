// The executor's folder create and the race rule, over an in-memory port.
import { describe, expect, it } from 'vitest';
import type { Folder } from '../../src/domain/wire.js';
import { createFolderOnce } from '../../src/core/execute/folder-create.js';
import { execute } from '../../src/core/execute/index.js';
import type { ApiPort } from '../../src/core/api-port.js';
import { plan } from '../../src/core/plan/index.js';
import { ApiError, NetworkError } from '../../src/errors.js';
import { applyResultJson, renderApplySummary } from '../../src/render/apply.js';
import { readSettings } from '../../src/env.js';
import { decideStyle } from '../../src/render/style.js';
import { ctx, desired, dWorkbook, live } from './builders.js';

const plainStyle = decideStyle({ isTTY: false, columns: 0, settings: readSettings({}), noColorFlag: true });

/** Folders in memory; `beforeCreate` may act as another writer, `createFails` may lose the answer. */
function folderPort(
  opts: {
    beforeCreate?: (p: ReturnType<typeof folderPort>) => void;
    createFails?: (n: number) => 'before' | 'after' | undefined;
  } = {},
) {
  let next = 10;
  let creates = 0;
  const port = {
    folders: [] as Folder[],
    calls: [] as string[],
    add(name: string, parentId: number | null): Folder {
      const f = { id: next++, name, parentId } as Folder;
      port.folders.push(f);
      return f;
    },
    async createFolder(body: { name: string; parentId: number | null }) {
      port.calls.push(`create ${body.name}`);
      opts.beforeCreate?.(port);
      const fail = opts.createFails?.(++creates);
      if (fail === 'before') throw new NetworkError('POST', '/folders', 'reset');
      const f = port.add(body.name, body.parentId);
      if (fail === 'after') throw new NetworkError('POST', '/folders', 'reset');
      return f;
    },
    async listFolders(parentId: number | null) {
      port.calls.push(`list ${parentId}`);
      return port.folders.filter((f) => (f.parentId ?? null) === parentId);
    },
    async deleteFolder(id: number) {
      port.calls.push(`delete ${id}`);
      port.folders = port.folders.filter((f) => f.id !== id);
    },
    async upsertWorkbookBySlug(slug: string, body: unknown) {
      port.calls.push(`upsert ${slug} ${JSON.stringify(body)}`);
      return { id: 500 } as never;
    },
  };
  return port;
}

describe('createFolderOnce: the race rule', () => {
  it('keeps its folder when no twin appeared', async () => {
    const port = folderPort();
    expect(await createFolderOnce(port as unknown as ApiPort, 'A', null)).toEqual({ id: 10 });
    expect(port.calls).toEqual(['create A', 'list null']);
  });

  it('another writer made the same folder first (lower id): ours is deleted and theirs used', async () => {
    const port = folderPort({ beforeCreate: (p) => void p.add('A', null) });
    expect(await createFolderOnce(port as unknown as ApiPort, 'A', null)).toEqual({
      id: 10,
      lost: { ours: 11, deleted: true },
    });
    expect(port.calls).toEqual(['create A', 'list null', 'delete 11']);
    expect(port.folders.map((f) => f.id)).toEqual([10]);
  });

  it('an answer lost after the create committed: the re-list finds it, no second create', async () => {
    const port = folderPort({ createFails: () => 'after' });
    expect(await createFolderOnce(port as unknown as ApiPort, 'A', 3)).toEqual({ id: 10 });
    expect(port.calls).toEqual(['create A', 'list 3']);
    expect(port.folders).toHaveLength(1);
  });

  it('a create that failed before committing is sent again, and only then', async () => {
    const port = folderPort({ createFails: (n) => (n === 1 ? 'before' : undefined) });
    expect(await createFolderOnce(port as unknown as ApiPort, 'A', null)).toEqual({ id: 10 });
    expect(port.calls).toEqual(['create A', 'list null', 'create A', 'list null']);
  });

  it('the second of twins (`A[2]`): with the first there, ours is the second lowest id and is kept', async () => {
    const port = folderPort();
    port.add('A', null);
    expect(await createFolderOnce(port as unknown as ApiPort, 'A', null, 2)).toEqual({ id: 11 });
    expect(port.folders.map((f) => f.id)).toEqual([10, 11]);
  });

  it('the second of twins, raced: another writer made a second first; ours (the third) is deleted', async () => {
    const port = folderPort({ beforeCreate: (p) => void p.add('A', null) });
    port.add('A', null);
    expect(await createFolderOnce(port as unknown as ApiPort, 'A', null, 2)).toEqual({
      id: 11,
      lost: { ours: 12, deleted: true },
    });
    expect(port.folders.map((f) => f.id)).toEqual([10, 11]);
  });

  it('a refusal (4xx) is not retried and not re-listed', async () => {
    const port = folderPort();
    port.createFolder = async () => {
      throw new ApiError({ method: 'POST', path: '/folders', status: 403 }, 'no');
    };
    await expect(createFolderOnce(port as unknown as ApiPort, 'A', null)).rejects.toThrow('no');
    expect(port.calls).toEqual([]);
  });
});

describe('execute: folders before what they hold', () => {
  it('creates parents first and sends the workbook the created folder id', async () => {
    const port = folderPort();
    const p = plan(
      desired({ workbooks: [{ ...dWorkbook('w', { name: 'W' }), folder: ['X', 'Y'] }] }),
      live({ folders: [] }),
      ctx(),
    );
    const r = await execute(p, port as unknown as ApiPort, { concurrency: 4 });
    expect(r.failed).toEqual([]);
    expect(port.calls).toEqual(['create X', 'list null', 'create Y', 'list 10', 'upsert w {"name":"W","folderId":11}']);
    expect(r.counts.created).toBe(3);
    expect(r.emptyFolders).toBeUndefined();
  });

  it('names a folder it created whose contents failed: left empty, reported, not deleted', async () => {
    const port = folderPort();
    port.upsertWorkbookBySlug = async () => {
      throw new ApiError({ method: 'PUT', path: '/workbooks/by-slug/w', status: 400 }, 'refused');
    };
    const p = plan(
      desired({ workbooks: [{ ...dWorkbook('w', { name: 'W' }), folder: ['X', 'Y'] }] }),
      live({ folders: [] }),
      ctx(),
    );
    const r = await execute(p, port as unknown as ApiPort, { concurrency: 4 });
    expect(r.failed.map((f) => f.request.address)).toEqual(['workbook/w']);
    // X holds Y, so only Y is empty; nothing was deleted.
    expect(r.emptyFolders).toEqual(['folder/X/Y']);
    expect(port.calls.filter((c) => c.startsWith('delete'))).toEqual([]);
    expect(renderApplySummary(r, plainStyle)).toContain('folder/X/Y was created by this apply and is left empty');
    expect(applyResultJson(p, r).emptyFolders).toEqual(['folder/X/Y']);
  });
});
