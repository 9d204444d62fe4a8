// Adopt blocks checked by the planner: only a report without a publicId of its
// own can be given one; the block's publicId names the report's live one.
import { describe, expect, it } from 'vitest';
import { plan } from '../../src/core/plan/index.js';
import { derivePublicId } from '../../src/core/publicid.js';
import { ctx, desired, dReport, errorOf, live, lReport } from './builders.js';

describe('plan: adopt blocks', () => {
  it('a target with a real publicId of its own is refused (exit 3), naming both ids; as-is and per-deployment hints differ', () => {
    const d = desired({ reports: [dReport('revqZ1x8Kp0a', {}, { adopt: { deploymentId: 1, id: 90 } })] });
    const l = live({ reports: [lReport(90, 'apiMade00001')] });
    const asIs = errorOf(() => plan(d, l, ctx()));
    expect(asIs.code).toBe('adopt_public_id_set');
    expect(asIs.exitCode).toBe(3);
    expect(asIs.message).toMatch(
      /report 90 in deployment 1, which already has the publicId apiMade00001; .* cannot be given revqZ1x8Kp0a\./,
    );
    expect(asIs.hint).toMatch(/^Use the report's publicId in the file/);
    const perDep = errorOf(() => plan(d, l, ctx({ publicIds: 'per-deployment' })));
    expect(perDep.message).toContain(`cannot be given ${derivePublicId('revqZ1x8Kp0a', 1)}.`);
    expect(perDep.hint).toMatch(/^Add `publicId: apiMade00001` to the adopt block/);
  });

  it.each([null, undefined, '000000abcdef'])('a target whose publicId is %s can be adopted', (publicId) => {
    const d = desired({ reports: [dReport('revqZ1x8Kp0a', {}, { adopt: { deploymentId: 1, id: 90 } })] });
    const p = plan(d, live({ reports: [lReport(90, publicId as string)] }), ctx());
    expect(p.changes[0]!.actions).toEqual(['adopt']);
  });

  it('a target whose publicId several reports share (synthesized by the API) can be adopted', () => {
    const d = desired({ reports: [dReport('revqZ1x8Kp0a', {}, { adopt: { deploymentId: 1, id: 90 } })] });
    const p = plan(d, live({ reports: [lReport(90, 'sharedAAAAA1'), lReport(91, 'sharedAAAAA1')] }), ctx());
    expect(p.changes[0]!.actions).toEqual(['adopt']);
  });

  it("the block's publicId: matched under it (found again by id in a saved plan); refused when another report holds it", () => {
    const d = desired({
      reports: [
        dReport('revqZ1x8Kp0a', { name: 'r' }, { adopt: { deploymentId: 1, id: 90, publicId: 'apiMade00001' } }),
      ],
    });
    const p = plan(
      d,
      live({ reports: [lReport(90, 'apiMade00001', { name: 'r' })] }),
      ctx({ publicIds: 'per-deployment' }),
    );
    expect(p.changes[0]).toMatchObject({ actions: ['noop'], liveId: 90, livePublicId: 'apiMade00001' });
    expect(p.fingerprints).toEqual([expect.objectContaining({ address: 'report/revqZ1x8Kp0a', id: 90, by: 'id' })]);
    const e = errorOf(() =>
      plan(d, live({ reports: [lReport(91, 'apiMade00001'), lReport(90, null as never)] }), ctx()),
    );
    expect(e.code).toBe('adopt_public_id_elsewhere');
    expect(e.exitCode).toBe(3);
    // In another deployment the block is ignored: created under the file's (derived) publicId.
    const other = plan(d, live({}), ctx({ deploymentId: 2, publicIds: 'per-deployment' }));
    expect(other.changes[0]).toMatchObject({ actions: ['create'], livePublicId: derivePublicId('revqZ1x8Kp0a', 2) });
  });
});
