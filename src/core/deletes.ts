// The one rule of what is a delete: a request of phase 5, which the planner
// gives only to deletes (prune) and the executor starts only after every
// other request has ended. The plan's record wording, apply's --max-deletes
// guard, the drift report, the apply summary and the executor ask here.
import type { PlannedRequest, ResourceChange } from './plan-model.js';

/** The phase of deletes: after every other request. */
export const DELETE_PHASE = 5;

/** Whether a planned request deletes (a phase-5 request: only prune plans one). */
export function isDelete(r: Pick<PlannedRequest, 'phase'>): boolean {
  return r.phase === DELETE_PHASE;
}

/** Whether a resource change is a planned delete, blocked or not. */
export function deletesResource(rc: Pick<ResourceChange, 'actions' | 'requests'>): boolean {
  return rc.actions.includes('delete') || rc.requests.some(isDelete);
}
