// Live objects as the API sends them, for tests that serve or plan against
// them: only what the wire schemas require, plus what a test overrides.

const owner = { id: 1, email: 'a@example.com' };

/** A valid wire Report (publicId `r` and the id, zero-padded, unless `over` says otherwise). */
export function wireReport(id: number, over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id,
    deploymentId: 1,
    publicId: `r${String(id).padStart(11, '0')}`,
    name: `Report ${id}`,
    type: 'REPORT',
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    userId: 1,
    user: owner,
    refreshedByUser: owner,
    ...over,
  };
}
