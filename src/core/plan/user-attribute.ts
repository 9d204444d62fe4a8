// A user attribute (account-level; phase 0, independent of everything else).
import { USER_ATTRIBUTE_INPUT_FIELDS, type UserAttribute } from '../../domain/wire.js';
import { sameContent } from '../canonical.js';
import { fingerprintOf } from '../fingerprint.js';
import type { DesiredUserAttribute } from '../model.js';
import type { FieldChange, PlannedRequest, ResourceChange } from '../plan-model.js';
import type { JsonValue, Obj } from '../json.js';
import { change, liveField, request, writeActions, type Planned } from './compare.js';
import { createOnlyDifference } from './create-only.js';

export function planUserAttribute(a: DesiredUserAttribute, la: UserAttribute | undefined): Planned {
  const exists = la !== undefined;
  const changes: FieldChange[] = [];
  const body: Obj = {};
  if (!exists) changes.push(change('type', undefined, a.type ?? 'string', false));
  for (const f of USER_ATTRIBUTE_INPUT_FIELDS) {
    if (!(f in a.fields)) continue;
    const v = (a.fields[f] ?? null) as JsonValue;
    const before = liveField(la, f);
    if (exists && sameContent(v, before)) continue;
    changes.push(change(f, before, v, exists));
    body[f] = v;
  }
  const requests: PlannedRequest[] = [];
  const actions = writeActions(exists, false, changes.length);
  const typeDiff = exists ? createOnlyDifference('type', liveField(la, 'type'), a.type) : undefined;
  if (!exists) {
    const createBody = { name: a.name, type: a.type ?? 'string', ...(body as Record<string, string | null>) };
    requests.push(request(a.address, 'create', 0, { op: 'createUserAttribute', body: createBody }));
  } else if (changes.length > 0) {
    requests.push(request(a.address, 'update', 0, { op: 'updateUserAttribute', id: la.id, body }));
  } else {
    actions.push('noop');
  }
  if (typeDiff) changes.unshift(typeDiff);
  const rc: ResourceChange = { address: a.address, kind: 'user-attribute', actions, changes, requests, pos: a.pos };
  if (la) rc.liveId = la.id;
  return { change: rc, fingerprints: () => [fingerprintOf(a.address, la, a.id !== undefined ? 'id' : 'identity')] };
}
