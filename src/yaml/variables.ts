// `${vars.NAME}` and `${env.NAME}` in YAML scalars. A scalar that is exactly
// one `${...}` takes the variable's value with its type (a number stays a
// number); inside a longer string the value is stringified. `$${` is a
// literal `${`, for text that must keep one (SQL, templates).

/**
 * Environment variables that only wsc.yaml's `token:` may read. Anywhere
 * else their values would end up in dashboards, and in the plan printed on a
 * pull request.
 */
export const SECRET_ENV_RE = /TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|PRIVATE_KEY|API_KEY/i;

type VarNamespace = 'vars' | 'env';
export type VarLookup = (
  ns: VarNamespace,
  name: string,
) => { found: true; value: unknown } | { found: false; refused?: string };

export interface VarProblem {
  /** `refused`: the lookup declines to give the value (e.g. a secret); `reason` says why. */
  kind: 'undefined' | 'malformed' | 'refused';
  reason?: string;
  /** The reference as written, e.g. `${vars.folderId}`. */
  ref: string;
  ns?: VarNamespace;
  name?: string;
  /** Character index of the reference in the scalar's text. */
  index: number;
}

export interface Interpolation {
  value: unknown;
  problems: VarProblem[];
}

// `$${` (escape), `${...}`, or a `${` never closed (a typo, reported).
const TOKEN = /\$\$\{|\$\{([^}]*)\}|\$\{[^}]*$/g;
const REF = /^\s*(vars|env)\.([A-Za-z_][A-Za-z0-9_]*)\s*$/;

export function hasVariables(text: string): boolean {
  return text.includes('${');
}

export function interpolate(text: string, lookup: VarLookup): Interpolation {
  if (!hasVariables(text)) return { value: text, problems: [] };
  const problems: VarProblem[] = [];
  const whole = /^\$\{([^}]*)\}$/.exec(text);
  if (whole) {
    const r = resolve(whole[1]!, text, 0, lookup, problems);
    return { value: r.ok ? r.value : text, problems };
  }
  let out = '';
  let last = 0;
  for (const m of text.matchAll(TOKEN)) {
    out += text.slice(last, m.index);
    last = m.index + m[0].length;
    if (m[0] === '$${') {
      out += '${';
      continue;
    }
    if (!m[0].endsWith('}')) {
      problems.push({ kind: 'malformed', ref: m[0], index: m.index });
      out += m[0];
      continue;
    }
    const r = resolve(m[1]!, m[0], m.index, lookup, problems);
    out += r.ok ? stringify(r.value) : m[0];
  }
  out += text.slice(last);
  return { value: out, problems };
}

function resolve(
  inner: string,
  ref: string,
  index: number,
  lookup: VarLookup,
  problems: VarProblem[],
): { ok: true; value: unknown } | { ok: false } {
  const m = REF.exec(inner);
  if (!m) {
    problems.push({ kind: 'malformed', ref, index });
    return { ok: false };
  }
  const ns = m[1] as VarNamespace;
  const name = m[2]!;
  const found = lookup(ns, name);
  if (!found.found) {
    if (found.refused) problems.push({ kind: 'refused', reason: found.refused, ref, ns, name, index });
    else problems.push({ kind: 'undefined', ref, ns, name, index });
    return { ok: false };
  }
  return { ok: true, value: found.value };
}

function stringify(v: unknown): string {
  return v !== null && typeof v === 'object' ? JSON.stringify(v) : String(v);
}
