// What `wsc preview` decides outside its command: `--against`'s value
// (preview/baselines.ts parseAgainst) and where the charts' data comes from
// (preview/data-plan.ts: a reader per drawing, boxes that say why).
import { describe, expect, it } from 'vitest';
import { parseAgainst } from '../../src/preview/baselines.js';
import { dataFrom, noData, type DataReading } from '../../src/preview/data-plan.js';
import { previewModel } from '../../src/preview/model.js';
import { UsageError } from '../../src/errors.js';

describe('parseAgainst', () => {
  it('reads git:<ref> and env:<name>', () => {
    expect(parseAgainst('git:main')).toEqual({ kind: 'git', ref: 'main' });
    expect(parseAgainst('git:origin/feature:x')).toEqual({ kind: 'git', ref: 'origin/feature:x' });
    expect(parseAgainst('env:production')).toEqual({ kind: 'env', name: 'production' });
  });

  it('refuses anything else, and a ref git would read as an option', () => {
    for (const bad of ['main', 'git:', 'svn:trunk', 'git:--output=/tmp/x', 'env:-x']) {
      expect(() => parseAgainst(bad), bad).toThrow(UsageError);
    }
    expect(() => parseAgainst('main')).toThrow(/--against takes git:<ref> or env:<environment>, got "main"/);
  });
});

describe('the data plan', () => {
  const empty = previewModel({ workbooks: [], reports: [], userAttributes: [] }, []);

  it('without data: boxes, and the reason said', async () => {
    const drawn = await noData('--no-data: the charts are drawn as boxes').draw(empty);
    expect(drawn.data).toEqual({ off: '--no-data: the charts are drawn as boxes' });
  });

  it('a reader opened and closed per drawing, its host named; a reader that cannot be opened says why', async () => {
    let opened = 0;
    let closed = 0;
    let connClosed = 0;
    const reader: DataReading = {
      restUrl: 'https://acme.cubecloud.dev/cubejs-api/v1',
      load: () => Promise.reject(new Error('not asked')),
      sql: () => Promise.reject(new Error('not asked')),
      close: () => Promise.resolve(void closed++),
    };
    let ok = true;
    const plan = dataFrom(
      'prod',
      () => {
        opened++;
        return Promise.resolve(ok ? { ok: true as const, reader } : { ok: false as const, why: 'no production env' });
      },
      () => Promise.resolve(void connClosed++),
    );
    expect((await plan.draw(empty)).data).toEqual({ from: 'prod (acme.cubecloud.dev)' });
    expect((await plan.draw(empty)).data).toEqual({ from: 'prod (acme.cubecloud.dev)' });
    expect([opened, closed]).toEqual([2, 2]);
    ok = false;
    expect((await plan.draw(empty)).data).toEqual({
      off: 'the Core Data API of prod cannot be read: no production env',
    });
    expect(connClosed).toBe(0);
    await plan.close();
    expect(connClosed).toBe(1);
  });
});
