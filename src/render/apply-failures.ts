// The failures of an apply, grouped by cause (ten reports refused for one
// reason are one message with ten names), and the closing line that says
// honestly whether re-running apply will converge: only when every failure
// was transient (no answer, throttled, a server error, an interruption) and
// nothing was blocked (a blocked resource stays blocked until someone acts).
import { INTERRUPTED, type ApplyResult, type FailedRequest } from '../core/execute/index.js';
import { THROTTLE_STATUSES, TRANSIENT_CONFLICT_CODES, UNKNOWN_OUTCOME_STATUSES } from '../domain/wire.js';
import { ApiError, NetworkError, type WscError } from '../errors.js';
import type { Style } from './style.js';
import { plural } from './diagnostics.js';
import { visible } from '../visible.js';

/** A failure that the same request may not meet again: no answer, throttling, a server error, a transient conflict. */
function isTransient(e: WscError): boolean {
  if (e instanceof NetworkError) return true;
  if (!(e instanceof ApiError)) return false;
  if (e.status === 409) return e.apiCode !== undefined && TRANSIENT_CONFLICT_CODES.includes(e.apiCode);
  return e.status === 408 || THROTTLE_STATUSES.includes(e.status) || UNKNOWN_OUTCOME_STATUSES.includes(e.status);
}

/** Names listed under one cause at most; past it, the cause's one line gives the count, the first and the last. */
export const LISTED_PER_CAUSE = 10;

/** The cause of a failure, with what names its own resource (address, name, file, request path) taken out. */
function causeKey(f: FailedRequest): string {
  const e = f.error;
  const path = e instanceof ApiError || e instanceof NetworkError ? e.path : undefined;
  const own = [f.request.address, f.request.address.slice(f.request.address.indexOf('/') + 1), f.pos?.file, path]
    .filter((x): x is string => x !== undefined && x.length > 0)
    .sort((a, b) => b.length - a.length);
  const general = (text: string | undefined) => own.reduce((t, x) => t.split(x).join('\u0000'), text ?? '');
  const api = e instanceof ApiError ? `${e.method}|${e.status}|${e.apiCode ?? ''}|${general(e.serverMessage)}` : '';
  const net = e instanceof NetworkError ? e.method : '';
  return JSON.stringify([e.code, api, net, general(e.hint), general(e.message)]);
}

/** The Failed section's body: one block per cause, naming every resource that met it. */
export function renderFailureGroups(failed: readonly FailedRequest[], style: Style): string {
  const { c } = style;
  const groups = new Map<string, FailedRequest[]>();
  for (const f of failed) {
    const k = causeKey(f);
    const g = groups.get(k);
    if (g) g.push(f);
    else groups.set(k, [f]);
  }
  let out = '';
  for (const group of groups.values()) {
    if (group.length > 1) {
      const first = visible(group[0]!.request.address);
      const last = visible(group[group.length - 1]!.request.address);
      const answer = answerOf(group[0]!.error);
      out += `  ${c.dim(`${group.length} requests failed for one reason: ${answer}, first ${first}, last ${last}`)}\n`;
    }
    for (const f of group.length > LISTED_PER_CAUSE ? [] : group) {
      const where = f.pos ? `  ${c.dim(`${visible(f.pos.file)}:${f.pos.line}:${f.pos.col}`)}` : '';
      out += `  ${c.red(visible(f.request.address))}${where}\n`;
    }
    const e = group[0]!.error;
    const first = group.length > 1 ? ` (${visible(group[0]!.request.address)}; the others alike)` : '';
    if (e instanceof ApiError) {
      const server = e.serverMessage ? `: ${visible(e.serverMessage)}` : '';
      out += `    ${e.method} ${visible(e.path)} -> ${e.status}${server}${first}\n`;
    } else if (e instanceof NetworkError) {
      out += `    ${e.method} ${visible(e.path)} -> no answer${first}\n`;
    }
    out += `    ${visible(e.message)}\n`;
    for (const d of e.details) out += `    ${visible(d)}\n`;
    if (e.hint) out += `    ${c.cyan('Hint:')} ${visible(e.hint)}\n`;
  }
  return out;
}

/** `PUT -> 502`, `POST -> no answer`: what a failure met, without its path. */
function answerOf(e: WscError): string {
  if (e instanceof ApiError) return `${e.method} -> ${e.status}`;
  if (e instanceof NetworkError) return `${e.method} -> no answer`;
  return e.code;
}

/**
 * The Skipped section's body: one line per request, but a reason shared by more than
 * LISTED_PER_CAUSE requests (every request an open breaker or an interrupt kept from
 * starting) is one line with the count, the first and the last.
 */
export function renderSkipGroups(
  skipped: readonly { request: { address: string }; reason: string; what: string }[],
): string {
  const groups = new Map<string, typeof skipped>();
  for (const s of skipped) groups.set(s.reason, [...(groups.get(s.reason) ?? []), s]);
  let out = '';
  for (const [reason, group] of groups) {
    if (group.length > LISTED_PER_CAUSE) {
      const [first, last] = [group[0]!.request.address, group[group.length - 1]!.request.address];
      out += `  ${group.length} requests, first ${visible(first)}, last ${visible(last)}: ${visible(reason)}\n`;
    } else {
      for (const s of group) out += `  ${visible(s.request.address)} (${s.what}): ${visible(reason)}\n`;
    }
  }
  return out;
}

/** The closing line of an apply that did not complete. */
export function convergenceNote(result: ApplyResult, style: Style): string {
  const permanent = result.failed.filter((f) => !isTransient(f.error)).length;
  const blocked = new Set(result.skipped.filter((s) => s.blocked).map((s) => s.request.address)).size;
  if (blocked > 0) {
    const one = blocked === 1;
    const rest =
      result.failed.length === 0
        ? ''
        : permanent === 0
          ? ' The failures above were transient: a re-run may apply them.'
          : ` ${plural(permanent, 'request')} failed for a reason a re-run meets again: change what the messages say.`;
    return style.c.yellow(
      `${plural(blocked, 'resource')} ${one ? 'is' : 'are'} blocked: re-running apply alone leaves ` +
        `${one ? 'it' : 'them'} as ${one ? 'it is' : 'they are'}; take one of the two ways forward named ` +
        `for ${one ? 'it' : 'each'} above.${rest}`,
    );
  }
  const raced = result.failed.filter((f) => f.error.code === 'draft_changed').length;
  if (raced > 0 && raced === permanent) {
    // A draft edited outside wsc during this apply: the next plan shows the edit as changed on both sides.
    return style.c.yellow(
      `Re-running apply plans again: it shows the draft edited outside wsc during this apply as changed on both ` +
        `sides, and leaves it alone until one of the two ways forward named for it is taken.`,
    );
  }
  if (permanent === 0) {
    const why =
      result.failed.length === 0 && result.skipped.some((s) => s.reason === INTERRUPTED)
        ? 'the apply was interrupted'
        : 'every failure was transient';
    return style.c.dim(`Re-running apply converges (${why}): what was applied is not repeated.`);
  }
  const transient = result.failed.length - permanent;
  const rest =
    transient > 0 ? ` The other ${transient} failed for a transient reason and may succeed on a re-run.` : '';
  return style.c.yellow(
    `Re-running apply alone will fail the same way for ` +
      `${plural(permanent, 'request')}: change what the messages above say ` +
      `first (what was applied is not repeated).${rest}`,
  );
}
