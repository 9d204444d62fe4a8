// Preloaded into the measured wsc process (`node --import bench/probe.mjs
// bin/wsc.js ...`): on exit it writes the process's own resource usage (peak
// RSS, user and system CPU) to $BENCH_PROBE_OUT. getrusage(RUSAGE_SELF) of
// the CLI itself, so the figures exclude the harness and the emulator, and
// CPU excludes time spent waiting on the network.
import { writeFileSync } from 'node:fs';

const out = process.env.BENCH_PROBE_OUT;
if (out) {
  process.on('exit', () => {
    const u = process.resourceUsage();
    writeFileSync(out, JSON.stringify({ maxRssKb: u.maxRSS, userUs: u.userCPUTime, systemUs: u.systemCPUTime }));
  });
}
