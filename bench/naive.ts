// The naive client the benchmark compares with: one GET per resource, in
// sequence, over one keep-alive connection. Measured on a sample and
// extrapolated linearly (at 10k x 20 ms the full loop would take minutes).
import type { Emulator } from '../src/emulator/index.js';

export interface NaiveSample {
  sample: number;
  totalMs: number;
  perRequestMs: number;
}

export async function measureNaive(emu: Emulator, deploymentId: number, ids: { reports: number[]; workbooks: number[] }, sample: number): Promise<NaiveSample> {
  const paths = [
    ...ids.reports.map((id) => `/api/v1/deployments/${deploymentId}/reports/${id}`),
    ...ids.workbooks.map((id) => `/api/v1/deployments/${deploymentId}/workbooks/${id}`),
  ];
  // Spread the sample over both kinds, in proportion.
  const step = Math.max(1, Math.floor(paths.length / sample));
  const picked = paths.filter((_, i) => i % step === 0).slice(0, sample);
  const headers = { authorization: `Bearer ${emu.adminToken}` };
  const started = performance.now();
  for (const p of picked) {
    const res = await fetch(emu.url + p, { headers });
    if (!res.ok) throw new Error(`naive client: GET ${p} -> ${res.status}`);
    await res.arrayBuffer();
  }
  const totalMs = performance.now() - started;
  return { sample: picked.length, totalMs, perRequestMs: totalMs / picked.length };
}
