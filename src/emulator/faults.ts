// Fault injection: random rates and exact scripts of failures, for tests of
// retries and exactly-once writes, and for the benchmark.
//
// Spec string grammar (comma-separated, whitespace ignored):
//   spec      := item ("," item)*
//   item      := kind "=" rate | "methods=" METHOD ("+" METHOD)*
//              | "paths=" REGEX | "retry-after=" SECONDS | "retry-after=date:" SECONDS
//              | "continue-wait=" N   (the Core Data API's first N answers to each /v1/load query)
//   kind      := "409" | "429" | "500" | "502" | "503" | "504" | "reset-before" | "reset-after" | "garbled-after"
//   rate      := a number in [0, 1], the probability per eligible request
// Example: `409=0.1,429=0.05,500=0.02,reset-before=0.05,reset-after=0.05,methods=POST+PUT,retry-after=1`
// At most one fault hits a request: one draw, the rates stacked in the order
// above (so their sum must be <= 1). `409` (upsert_branch_changed, nothing
// applied) hits only writes (POST/PUT/PATCH/DELETE). `reset-before` closes
// the connection without applying anything; `reset-after` applies the write
// and then closes the connection without an answer; `garbled-after` applies
// it and answers with its status but only the first half of the body (not
// JSON: a proxy or server that cut it). 429 and 503 carry
// `Retry-After` (seconds, default 1; `date:N` sends the HTTP-date N seconds ahead).
export const FAULT_KINDS = [
  '409',
  '429',
  '500',
  '502',
  '503',
  '504',
  'reset-before',
  'reset-after',
  'garbled-after',
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface ScriptedFault {
  /** Matches the request method (case-insensitive); any when omitted. */
  method?: string;
  /** Matches the request path (without query); a string must equal it, a RegExp must match. */
  path?: string | RegExp;
  fault: FaultKind;
  /** How many matching requests this entry hits (default 1). */
  times?: number;
  /** Retry-After header value for 429/503 (number = seconds; string sent as is). */
  retryAfter?: number | string;
}

export interface FaultSpec {
  rates?: Partial<Record<FaultKind, number>>;
  /** Random faults only hit these methods (upper case); all when omitted. */
  methods?: string[];
  /** Random faults only hit paths matching this. */
  paths?: RegExp;
  /** Retry-After for 429/503: seconds, or `date:N` for an HTTP-date N seconds ahead. */
  retryAfter?: number | `date:${number}`;
  /** Consumed in order: each request takes the first remaining entry that matches it. */
  script?: ScriptedFault[];
  /** The Core Data API's `/v1/load` answers "Continue wait" to the first N asks of each query. */
  continueWait?: number;
}

export class FaultSpecError extends Error {}

export function parseFaults(spec: string): FaultSpec {
  const out: FaultSpec = { rates: {} };
  const items = spec
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  for (const item of items) {
    const eq = item.indexOf('=');
    if (eq < 0) throw new FaultSpecError(`fault "${item}": expected KEY=VALUE`);
    const key = item.slice(0, eq).trim().toLowerCase();
    const value = item.slice(eq + 1).trim();
    if ((FAULT_KINDS as readonly string[]).includes(key)) {
      const n = Number(value);
      if (value === '' || !Number.isFinite(n) || n < 0 || n > 1) {
        throw new FaultSpecError(`fault "${item}": the rate must be a number from 0 to 1`);
      }
      out.rates![key as FaultKind] = n;
    } else if (key === 'methods') {
      const ms = value.split('+').map((m) => m.trim().toUpperCase());
      for (const m of ms) {
        if (!/^(GET|POST|PUT|PATCH|DELETE)$/.test(m))
          throw new FaultSpecError(`fault "${item}": unknown method "${m}"`);
      }
      out.methods = ms;
    } else if (key === 'paths') {
      try {
        out.paths = new RegExp(value);
      } catch {
        throw new FaultSpecError(`fault "${item}": not a valid regular expression`);
      }
    } else if (key === 'retry-after') {
      const m = /^(date:)?(\d+)$/.exec(value);
      if (!m) throw new FaultSpecError(`fault "${item}": expected seconds (e.g. 1) or date:SECONDS`);
      out.retryAfter = m[1] ? (`date:${Number(m[2])}` as const) : Number(m[2]);
    } else if (key === 'continue-wait') {
      if (!/^\d+$/.test(value)) throw new FaultSpecError(`fault "${item}": expected a number of asks (e.g. 2)`);
      out.continueWait = Number(value);
    } else {
      throw new FaultSpecError(
        `fault "${item}": unknown key "${key}" ` +
          `(known: ${FAULT_KINDS.join(', ')}, methods, paths, retry-after, continue-wait)`,
      );
    }
  }
  const sum = Object.values(out.rates!).reduce((a, b) => a + (b ?? 0), 0);
  if (sum > 1 + 1e-9) throw new FaultSpecError(`fault rates add up to ${sum}, more than 1`);
  return out;
}

export function normalizeFaults(spec: FaultSpec | string | undefined): FaultSpec | undefined {
  if (spec === undefined) return undefined;
  if (typeof spec === 'string') return parseFaults(spec);
  return { ...spec, script: spec.script?.map((s) => ({ ...s })) };
}

export interface ChosenFault {
  kind: FaultKind;
  retryAfter?: string;
}

const WRITE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Picks the fault (if any) for one request; consumes script entries. */
export function chooseFault(
  spec: FaultSpec | undefined,
  method: string,
  path: string,
  rng: () => number,
): ChosenFault | undefined {
  if (!spec) return undefined;
  const retryAfterOf = (v: number | string | undefined): string => {
    if (typeof v === 'string') {
      const m = /^date:(\d+)$/.exec(v);
      if (m) return new Date(Date.now() + Number(m[1]) * 1000).toUTCString();
      return v;
    }
    return String(v ?? 1);
  };
  if (spec.script) {
    const i = spec.script.findIndex(
      (s) =>
        (s.method === undefined || s.method.toUpperCase() === method) &&
        (s.path === undefined || (typeof s.path === 'string' ? s.path === path : s.path.test(path))),
    );
    if (i >= 0) {
      const entry = spec.script[i]!;
      const left = (entry.times ?? 1) - 1;
      if (left <= 0) spec.script.splice(i, 1);
      else entry.times = left;
      return { kind: entry.fault, retryAfter: retryAfterOf(entry.retryAfter ?? spec.retryAfter) };
    }
  }
  const rates = spec.rates;
  if (!rates) return undefined;
  if (spec.methods && !spec.methods.includes(method)) return undefined;
  if (spec.paths && !spec.paths.test(path)) return undefined;
  const r = rng();
  let acc = 0;
  for (const kind of FAULT_KINDS) {
    const rate = rates[kind] ?? 0;
    if (rate <= 0) continue;
    acc += rate;
    if (r < acc) {
      if (kind === '409' && !WRITE.has(method)) return undefined;
      return { kind, retryAfter: retryAfterOf(spec.retryAfter) };
    }
  }
  return undefined;
}
