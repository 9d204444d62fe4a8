// Phase events: a kind of request is announced when its first request
// settles or starts, and closed with its counts when its last one has ended.
import type { PlannedRequest } from '../plan-model.js';
import type { ApplyEvent, Outcome, Phase } from './types.js';

export interface PhaseTracker {
  /** Announces the phase (once). */
  touch(phase: Phase): void;
  /** Counts one request of the phase as ended; the last one closes the phase. */
  settle(phase: Phase, status: Outcome['status']): void;
}

export function trackPhases(requests: readonly PlannedRequest[], emit: (e: ApplyEvent) => void): PhaseTracker {
  const totals = new Map<Phase, number>();
  for (const r of requests) totals.set(r.phase, (totals.get(r.phase) ?? 0) + 1);
  const seen = new Map<Phase, { applied: number; failed: number; skipped: number }>();
  const touch = (phase: Phase) => {
    if (seen.has(phase)) return;
    seen.set(phase, { applied: 0, failed: 0, skipped: 0 });
    emit({ type: 'phase-start', phase, total: totals.get(phase) ?? 0 });
  };
  const settle = (phase: Phase, status: Outcome['status']) => {
    touch(phase);
    const s = seen.get(phase)!;
    s[status]++;
    if (s.applied + s.failed + s.skipped === totals.get(phase)) emit({ type: 'phase-end', phase, ...s });
  };
  return { touch, settle };
}
