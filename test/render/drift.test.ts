import { describe, expect, it } from 'vitest';
import { renderDriftHuman, renderDriftMarkdown, type DriftModel } from '../../src/render/drift.js';
import { plainStyle } from '../../src/render/style.js';
import { driftEntries } from './plan-fixture.js';

const entries = driftEntries;

const model = (n: number): DriftModel => ({
  environment: 'prod',
  deploymentId: 1,
  bundle: 'team-a',
  run: { dir: 'dashboards', env: 'prod' },
  entries: entries(n),
});

const rows = (md: string) => md.split('\n').filter((l) => l.startsWith('| <code>report/drift')).length;
const ways = (md: string) => md.split('\n').filter((l) => l.startsWith('- <code>report/drift')).length;

describe('renderDriftMarkdown (an issue body)', () => {
  it('a few differences: every row and every way forward', () => {
    const md = renderDriftMarkdown(model(3));
    expect(rows(md)).toBe(3);
    expect(ways(md)).toBe(3);
    expect(md).not.toContain('more difference');
    // The commands name the run's bundle and environment: followed from where it ran, they act on the same.
    expect(md).toContain(
      '- <code>report/drift0000002</code>: `wsc export --only report/drift0000002 --into dashboards --env prod` ' +
        'takes the live values into its file; `wsc apply --overwrite-ui-edits report/drift0000002 --dir dashboards ' +
        "--env prod` writes the bundle's.",
    );
  });

  it("stays under GitHub's issue body limit: rows and ways forward end with how many are left out", () => {
    const md = renderDriftMarkdown(model(5000));
    expect(md.length).toBeLessThanOrEqual(60_000);
    const more =
      /_… and (\d+) more differences: see them all with `wsc drift --output human --dir dashboards --env prod` or `wsc drift --output json --dir dashboards --env prod`._/.exec(
        md,
      );
    expect(more).not.toBeNull();
    expect(rows(md) + Number(more![1])).toBe(5000);
    const moreWays =
      /- … and (\d+) more: see them all with `wsc drift --output human --dir dashboards --env prod`/.exec(md);
    expect(moreWays).not.toBeNull();
    expect(ways(md) + Number(moreWays![1])).toBe(5000);
    expect(rows(md)).toBeGreaterThan(50);
    expect(ways(md)).toBeGreaterThan(50);
  });
});

describe('the ways forward (human and markdown)', () => {
  const entry = (field: string, changed: 'outside' | 'bundle' | 'unknown', live?: string) => ({
    address: 'report/r1',
    field,
    ...(live !== undefined ? { live } : {}),
    bundle: 'b',
    changed,
    apply: 'keep' as const,
  });
  const of = (entries: DriftModel['entries']): DriftModel => ({ ...model(0), entries });

  it('two fields edited outside wsc: the two ways for the address, no `wsc apply` (the bundle changed nothing)', () => {
    const m = of([entry('title', 'outside', 'x'), entry('name', 'outside', 'y')]);
    const human = renderDriftHuman(m, plainStyle);
    expect(human.split('\n').filter((l) => l.includes('`wsc '))).toEqual([
      'report/r1: `wsc export --only report/r1 --into dashboards --env prod` takes the live values into its file; ' +
        "`wsc apply --overwrite-ui-edits report/r1 --dir dashboards --env prod` writes the bundle's.",
    ]);
    expect(renderDriftMarkdown(m)).not.toContain('makes what only the bundle changed');
  });

  it('a report only the bundle holds: no live values to take; `wsc apply` creates it', () => {
    const m = of([entry('(resource)', 'unknown')]);
    for (const out of [renderDriftHuman(m, plainStyle), renderDriftMarkdown(m)]) {
      expect(out).not.toContain('wsc export --only');
      expect(out).toContain('`wsc apply --dir dashboards --env prod` makes what only the bundle changed.');
    }
  });

  it('a report the bundle no longer holds, kept (no --prune): the `wsc apply` printed prunes', () => {
    const m = of([{ ...entry('(resource)', 'bundle', 'other'), apply: 'keep' }]);
    expect(renderDriftHuman(m, plainStyle)).toContain(
      '`wsc apply --prune --dir dashboards --env prod` makes what only the bundle changed, deletes included.',
    );
    const pruning = of([{ ...entry('(resource)', 'bundle', 'other'), apply: 'revert' }]);
    expect(renderDriftHuman(pruning, plainStyle)).toContain(
      '`wsc apply --dir dashboards --env prod` makes what only the bundle changed.',
    );
  });
});
