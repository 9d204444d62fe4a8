// A report's changes and its one request: create (always with its publicId),
// adopt (PUT giving the publicId, plus changed fields) or update (phase 2).
import { REPORT_INPUT_FIELDS, sameSourceName } from '../../domain/wire.js';
import { sameContent, sameJsonString, setMember } from '../canonical.js';
import { fingerprintOf } from '../fingerprint.js';
import { isRef, type Ref } from '../model.js';
import type { FieldChange, Fingerprint, PlannedRequest, ResourceChange } from '../plan-model.js';
import { isObj, type JsonValue, type Obj } from '../json.js';
import { collectRefs, resolveRefs, type RefTargets } from '../refs.js';
import { change, liveField, request, writeActions, type Planned } from './compare.js';
import { createOnlyDifference } from './create-only.js';
import { dependencyOf, type Matches, type ReportMatch } from './match.js';

/** `base` with each member of `over` set (added or replaced); neither is changed. */
function withMembers(base: Obj, over: Obj): Obj {
  const out: Obj = {};
  for (const k of Object.keys(base)) setMember(out, k, base[k]!);
  for (const k of Object.keys(over)) setMember(out, k, over[k]!);
  return out;
}

/** `{ $workbook: <slug> }` for a live workbook id, when that workbook has a slug; the id otherwise. */
function workbookRefOf(id: JsonValue | undefined, m: Matches): JsonValue | undefined {
  if (typeof id !== 'number') return id;
  const slug = m.liveWorkbookById.get(id)?.slug;
  return typeof slug === 'string' && slug !== '' ? { $workbook: slug } : id;
}

/** A report's workbook as the file names it: by reference when the file does, the live one by its slug. */
function shownWorkbookId(c: FieldChange, raw: JsonValue, m: Matches): void {
  if (!isRef(raw)) return;
  const shown: { before?: JsonValue; after?: JsonValue } = {};
  // Only where it differs: a reference to a workbook this apply creates is `after` already.
  if (!sameContent(raw, c.after)) shown.after = raw;
  const before = 'before' in c ? workbookRefOf(c.before, m) : undefined;
  if (before !== undefined && !sameContent(before, c.before)) shown.before = before;
  if (Object.keys(shown).length > 0) c.shown = shown;
}

export function planReport(rm: ReportMatch, m: Matches, targets: RefTargets): Planned {
  const { desired: d, live: lr, livePid, adopting } = rm;
  const exists = lr !== undefined;
  const changes: FieldChange[] = [];
  const body: Obj = {};
  const deps = new Set<string>();
  const addPending = (refs: Ref[]) => {
    for (const ref of refs) deps.add(dependencyOf(ref, m));
  };

  if (adopting) changes.push(change('publicId', lr!.publicId, livePid, true));
  if (!exists && d.source !== undefined) changes.push(change('source', undefined, d.source, false));

  for (const f of REPORT_INPUT_FIELDS) {
    if (!(f in d.fields)) continue;
    const raw = d.fields[f] ?? null;
    const r = resolveRefs(raw, targets, { address: d.address, path: f, pos: d.pos, refPos: d.refPos });
    addPending(r.pending);
    const before = liveField(lr, f);
    if (f === 'meta' && isObj(r.value)) {
      let any = !exists;
      for (const k of Object.keys(r.value).sort()) {
        const v = r.value[k]!;
        const b = liveField(before, k);
        const pending = r.pending.length > 0 && collectRefs(v).length > 0;
        if (exists && !pending && sameContent(v, b)) continue;
        changes.push(change(`meta.${k}`, b, v, exists));
        any = true;
      }
      // Whether PUT /reports/{id} merges meta is not stated: the live value is
      // sent with the file's members applied, so no member the file does not
      // name is lost (the fingerprint of a saved plan covers that live value).
      if (any) body[f] = exists && isObj(before) ? withMembers(before, r.value) : r.value;
      continue;
    }
    const same = f === 'jsonQuery' ? sameJsonString(r.value, before) : sameContent(r.value, before);
    if (exists && r.pending.length === 0 && same) continue;
    const c = change(f, before, r.value, exists);
    if (f === 'workbookId') shownWorkbookId(c, raw, m);
    changes.push(c);
    body[f] = r.value;
  }

  const dependsOn = [...deps].filter((x) => x !== `${d.address}#create`).sort();
  // The members of `meta` this update sets; the others are the live ones, read again before the write.
  const fileMeta = d.fields.meta;
  const metaSet = 'meta' in body && isObj(fileMeta) ? { metaKeys: Object.keys(fileMeta).sort() } : {};
  const actions = writeActions(exists, adopting, changes.length);
  const requests: PlannedRequest[] = [];
  if (!exists) {
    const createBody = { publicId: livePid, ...(d.source !== undefined ? { source: d.source } : {}), ...body };
    requests.push(request(d.address, 'create', 2, { op: 'createReport', body: createBody }, dependsOn));
  } else if (adopting) {
    const operation = {
      op: 'updateReport' as const,
      reportId: lr.id,
      body: { publicId: livePid, ...body },
      ...metaSet,
    };
    requests.push(request(d.address, 'adopt', 2, operation, dependsOn));
  } else if (changes.length > 0) {
    const operation = { op: 'updateReport' as const, reportId: lr.id, body, ...metaSet };
    requests.push(request(d.address, 'update', 2, operation, dependsOn));
  } else {
    actions.push('noop');
  }
  // GOOGLE_SHEETS and HOSTED_SHEETS name one source: no difference between them.
  const liveSource = liveField(lr, 'source');
  const sourceDiff =
    exists && sameSourceName(liveSource) !== sameSourceName(d.source)
      ? createOnlyDifference('source', liveSource, d.source)
      : undefined;
  if (sourceDiff) changes.unshift(sourceDiff);

  const rc: ResourceChange = {
    address: d.address,
    kind: 'report',
    actions,
    livePublicId: livePid,
    changes,
    requests,
    pos: d.pos,
  };
  if (lr) rc.liveId = lr.id;
  const fingerprints = (): Fingerprint[] =>
    adopting
      ? [fingerprintOf(d.address, undefined), fingerprintOf(d.address, lr, 'id')]
      : [fingerprintOf(d.address, lr, rm.aliased ? 'id' : 'identity')];
  return { change: rc, fingerprints };
}
