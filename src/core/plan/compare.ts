// Comparison and shared pieces of the planner: live field access, the
// FieldChange constructor, and the one normalisation of dashboard drafts.
import { EXIT, WscError, type TargetCode } from '../../errors.js';
import { sameContent } from '../canonical.js';
import type { ActionKind, FieldChange, Fingerprint, Operation, PlannedRequest, ResourceChange } from '../plan-model.js';
import { isObj, type JsonValue } from '../json.js';
import { alignWidgetIds } from '../widget-identity.js';

/** A planned resource: its change and the fingerprints of what was read for it. */
export interface Planned {
  change: ResourceChange;
  /** Computed only for a plan that keeps fingerprints (PlanContext.fingerprints): hashing live objects is costly. */
  fingerprints: () => Fingerprint[];
}

/** The live state does not fit the bundle (exit 1: the input is valid, the target is not as expected). */
export function planError(code: TargetCode, message: string, hint: string): WscError {
  return new WscError(code, message, EXIT.failure, { hint });
}

/** Whether a desired draft equals the live one (a widget written without an id takes the live one's). */
export function sameDraft(desired: JsonValue, live: unknown): boolean {
  return sameContent(alignWidgetIds(desired, live), live);
}

export function liveField(obj: unknown, key: string): JsonValue | undefined {
  return isObj(obj) ? obj[key] : undefined;
}

export function change(path: string, before: JsonValue | undefined, after: JsonValue, exists: boolean): FieldChange {
  const c: FieldChange = { path };
  if (exists && before !== undefined) c.before = before;
  c.after = after;
  return c;
}

/** The request `<address>#<step>`. */
export function request(
  address: string,
  step: string,
  phase: PlannedRequest['phase'],
  operation: Operation,
  dependsOn: string[] = [],
): PlannedRequest {
  return { id: `${address}#${step}`, address, phase, operation, dependsOn };
}

/** A resource's write actions: `changes` counts its field changes, an adoption's own one included. */
export function writeActions(exists: boolean, adopting: boolean, changes: number): ActionKind[] {
  if (!exists) return ['create'];
  if (adopting) return changes > 1 ? ['adopt', 'update'] : ['adopt'];
  return changes > 0 ? ['update'] : [];
}
