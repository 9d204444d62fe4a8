// The naive client the benchmark compares with: one GET per resource, in
// sequence, over one keep-alive connection. Measured on a sample and
// extrapolated linearly (at 10k x 20 ms the full loop would take minutes).
import type { Emulator } from '../src/emulator/index.js';

export interface NaiveSample {
  sample: number;
  totalMs: number;
  perRequestMs: number;
}

export async function measureNaive(
  emu: Emulator,
  deploymentId: number,
  ids: { reports: number[]; workbooks: number[] },
  sample: number,
): Promise<NaiveSample> {
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

/**
 * What the emulator itself needs to serve one full page of reports (handler,
 * JSON text, transfer), with no injected latency: the median of a few reads.
 * A real server has its own such cost; the strict read bound counts latency only.
 */
export async function measurePageServe(
  emu: Emulator,
  deploymentId: number,
  latencyMs: number,
  pageSize: number,
): Promise<number> {
  emu.setLatency(0);
  try {
    const url = `${emu.url}/api/v1/deployments/${deploymentId}/reports?first=${pageSize}`;
    const times: number[] = [];
    for (let i = 0; i < 7; i++) {
      const started = performance.now();
      const res = await fetch(url, { headers: { authorization: `Bearer ${emu.adminToken}` } });
      await res.arrayBuffer();
      times.push(performance.now() - started);
    }
    return times.sort((a, b) => a - b)[3]!;
  } finally {
    emu.setLatency(latencyMs);
  }
}
