// The names a dashboard diff shows for the reports its widgets chart: the
// bundle publicId of a live report id (the live publicId for a report the
// bundle does not manage) and a title (the bundle's, else the live one's).
import type { Report } from '../../domain/wire.js';
import type { JsonValue } from '../json.js';
import type { ReportNames } from './dashboard-diff.js';
import type { Matches } from './match.js';

const cache = new WeakMap<Matches, ReportNames>();

function titleOf(fields: Partial<Record<string, JsonValue>> | undefined, live: Report | undefined): string | undefined {
  for (const v of [fields?.['title'], fields?.['name'], live?.title, live?.name])
    if (typeof v === 'string' && v !== '') return v;
  return undefined;
}

/** Built once per plan (its Matches), on the first dashboard that changes. */
export function reportNames(m: Matches): ReportNames {
  const known = cache.get(m);
  if (known) return known;
  const byId = new Map<number, { publicId: string; title: string }>();
  for (const [publicId, list] of m.liveReportsByPid) {
    for (const r of list) byId.set(r.id, { publicId, title: titleOf(undefined, r) ?? publicId });
  }
  const titles = new Map<string, string>();
  for (const rm of m.reports) {
    const title = titleOf(rm.desired.fields, rm.live) ?? rm.desired.publicId;
    titles.set(rm.desired.publicId, title);
    if (rm.live) byId.set(rm.live.id, { publicId: rm.desired.publicId, title });
  }
  for (const r of byId.values()) if (!titles.has(r.publicId)) titles.set(r.publicId, r.title);
  const names: ReportNames = { byId: (id) => byId.get(id), title: (pid) => titles.get(pid) };
  cache.set(m, names);
  return names;
}
