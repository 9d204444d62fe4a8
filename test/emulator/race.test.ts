import { describe, expect, it } from 'vitest';
import { d1, start } from './helpers.js';

describe('the upsert race (spec rule 8)', () => {
  it('concurrent upserts and deletes of one slug: some 409 upsert_branch_changed, never two workbooks per slug', async () => {
    const c = await start({ latencyMs: { min: 5, max: 20 }, randomSeed: 11 });
    const slug = 'contested';
    let conflicts = 0;
    const codes = new Set<string | undefined>();
    const violations: string[] = [];
    const watch = () => {
      const held = c.emu.snapshot().workbooks!.filter((w) => w.slug === slug);
      if (held.length > 1) violations.push(held.map((w) => w.id).join(','));
    };
    for (let round = 0; round < 12; round++) {
      const jobs: Promise<void>[] = [];
      for (let i = 0; i < 6; i++) {
        jobs.push(
          c.call('PUT', `${d1}/workbooks/by-slug/${slug}`, { name: `w${round}-${i}` }).then((r) => {
            watch();
            if (r.status === 409) {
              conflicts++;
              codes.add(r.body.code);
            } else expect(r.status).toBe(200);
          }),
        );
      }
      jobs.push(
        (async () => {
          const list = await c.call('GET', `${d1}/workbooks`);
          const wb = list.body.items.find((w: { slug: string }) => w.slug === slug);
          if (wb) {
            const del = await c.call('DELETE', `${d1}/workbooks/${wb.id}`);
            expect([200, 404]).toContain(del.status);
          }
          watch();
        })(),
      );
      await Promise.all(jobs);
    }
    const created = c.emu.log.filter((e) => e.method === 'PUT' && e.status === 200).length;
    expect(violations).toEqual([]);
    expect(conflicts).toBeGreaterThan(0);
    expect(codes).toEqual(new Set(['upsert_branch_changed']));
    expect(created).toBeGreaterThan(0);
    const final = c.emu.snapshot().workbooks!.filter((w) => w.slug === slug);
    expect(final.length).toBeLessThanOrEqual(1);
  });

  it('a 409 applies nothing: two simultaneous creates make one workbook, the loser changes nothing', async () => {
    // The latency widens the window between decision and application past the requests' arrival.
    const c = await start({ latencyMs: 150 });
    const [a, b] = await Promise.all([
      c.call('PUT', `${d1}/workbooks/by-slug/pair`, { name: 'A', meta: { from: 'A' } }),
      c.call('PUT', `${d1}/workbooks/by-slug/pair`, { name: 'B', meta: { from: 'B' } }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const winner = a.status === 200 ? a : b;
    const wbs = c.emu.snapshot().workbooks!;
    expect(wbs).toHaveLength(1);
    expect(wbs[0]).toMatchObject({ name: winner.body.name, meta: winner.body.meta });
    // A retry of the loser now updates the winner's workbook.
    const retry = await c.call('PUT', `${d1}/workbooks/by-slug/pair`, { name: 'C' });
    expect(retry.body.id).toBe(winner.body.id);
  });

  it('concurrent updates of an existing workbook do not conflict (only create/delete change the branch)', async () => {
    const c = await start();
    await c.call('PUT', `${d1}/workbooks/by-slug/calm`, { name: 'x' });
    const rs = await Promise.all(
      Array.from({ length: 8 }, (_, i) => c.call('PUT', `${d1}/workbooks/by-slug/calm`, { meta: { [`k${i}`]: i } })),
    );
    expect(rs.map((r) => r.status)).toEqual(Array(8).fill(200));
    expect(Object.keys(c.emu.snapshot().workbooks![0]!.meta!).sort()).toEqual([
      'k0',
      'k1',
      'k2',
      'k3',
      'k4',
      'k5',
      'k6',
      'k7',
    ]);
  });

  it('report upserts by publicId race the same way: one report per publicId', async () => {
    const c = await start({ latencyMs: 150 });
    const rs = await Promise.all(
      Array.from({ length: 5 }, (_, i) => c.call('PUT', `${d1}/reports/by-public-id/raceRep00001`, { name: `r${i}` })),
    );
    const statuses = rs.map((r) => r.status);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(1);
    expect(statuses.filter((s) => s === 409).length).toBeGreaterThanOrEqual(1);
    expect(
      rs.filter((r) => r.status !== 200).every((r) => r.status === 409 && r.body.code === 'upsert_branch_changed'),
    ).toBe(true);
    expect(c.emu.snapshot().reports!.filter((r) => r.publicId === 'raceRep00001')).toHaveLength(1);
    // And a delete between decision and application of an update is a 409 too.
    const id = rs.find((r) => r.status === 200)!.body.id;
    const [up, del] = await Promise.all([
      c.call('PUT', `${d1}/reports/by-public-id/raceRep00001`, { name: 'late' }),
      c.call('DELETE', `${d1}/reports/${id}`),
    ]);
    expect(del.status).toBe(200);
    expect(up.status).toBe(409);
    expect(up.body.code).toBe('upsert_branch_changed');
    expect(c.emu.snapshot().reports).toHaveLength(0);
  });
});
