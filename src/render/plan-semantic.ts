// The semantic check in a plan: a headline (what was checked against what,
// or why nothing was), each unknown member at file:line:col with its
// did-you-mean, and what could not be checked. Human, markdown and JSON.
import type { SemanticIssue } from '../core/semantic/check.js';
import { semanticHeadline, type SemanticOutcome } from '../core/semantic/outcome.js';
import type { Style } from './style.js';
import { visible } from '../visible.js';

/** Unchecked references listed one by one before "and N more" (all are in the JSON). */
const UNCHECKED_SHOWN = 10;

type Pos = { file: string; line: number; col: number };
const at = (p: Pos) => `${p.file}:${p.line}:${p.col}`;

/**
 * What could not be checked, in one line: each text once with where it stands
 * (`Not checked: month (a column of the SQL result, not a member) at
 * reports/mrr-trend.yaml:22:10`), a known and harmless note being no reason
 * for a block of lines on every run.
 */
function uncheckedNote(unchecked: readonly { pos: Pos; text: string; why: string }[]): string | undefined {
  if (unchecked.length === 0) return undefined;
  const byText = new Map<string, string[]>();
  for (const u of unchecked) {
    const key = `${u.text} (${u.why})`;
    byText.set(key, [...(byText.get(key) ?? []), at(u.pos)]);
  }
  const entries = [...byText].map(
    ([k, where]) => `${k} at ${where[0]}${where.length > 1 ? ` and ${where.length - 1} more` : ''}`,
  );
  const shown = entries.slice(0, UNCHECKED_SHOWN).join('; ');
  const more =
    entries.length > UNCHECKED_SHOWN ? `; and ${entries.length - UNCHECKED_SHOWN} more (all in --output json)` : '';
  return `Not checked: ${shown}${more}`;
}

/**
 * Whether the plan itself shows the check: when it refuses, or did not run (off, or the model unreadable).
 * A check that found every member known is a progress line on stderr, as the read is.
 */
export function semanticInPlan(o: SemanticOutcome | undefined): boolean {
  if (o === undefined || o.status === 'none') return false;
  return o.status !== 'checked' || o.result.issues.length > 0 || o.result.warnings.length > 0;
}

/** The check for people; `always`: also when the plan does not show it (the stderr line). */
export function semanticHuman(
  o: SemanticOutcome | undefined,
  deploymentId: number,
  style: Style,
  always = false,
): string {
  if (o === undefined || o.status === 'none' || (!always && !semanticInPlan(o))) return '';
  const { c } = style;
  const headline = semanticHeadline(o, deploymentId);
  let out = `${o.status === 'checked' && o.result.issues.length > 0 ? c.red(headline) : c.dim(headline)}\n`;
  if (o.status !== 'checked') return always ? out : `${out}\n`;
  for (const i of o.result.issues) out += `  ${c.red('✗')} ${visible(at(i.pos))} ${visible(i.message)}\n`;
  for (const w of o.result.warnings) out += `  ${c.yellow('!')} ${visible(at(w.pos))} ${visible(w.message)}\n`;
  const note = uncheckedNote(o.result.unchecked);
  if (note !== undefined) out += `  ${c.dim(visible(note))}\n`;
  return always ? out : `${out}\n`;
}

export function semanticMarkdown(
  o: SemanticOutcome | undefined,
  deploymentId: number,
  md: { escape: (s: string) => string; code: (s: string) => string },
): string {
  if (o === undefined || !semanticInPlan(o)) return '';
  let out = `\n> ${md.escape(visible(semanticHeadline(o, deploymentId)))}\n`;
  if (o.status !== 'checked') return out;
  if (o.result.issues.length > 0) {
    out += '\n| where | member | did you mean |\n|---|---|---|\n';
    for (const i of o.result.issues) {
      const mean = i.suggestion !== undefined ? md.code(i.suggestion) : '';
      out += `| ${md.code(`${at(i.pos)}`)} ${md.code(`${i.address} ${i.where}`)} | ${md.code(i.member)} | ${mean} |\n`;
    }
  }
  for (const w of o.result.warnings) out += `\n> warning: ${md.escape(visible(`${at(w.pos)} ${w.message}`))}\n`;
  return out;
}

/** The JSON plan's `semanticCheck` and `semanticIssues` (additive members of format 1). */
export function semanticJson(o: SemanticOutcome | undefined) {
  if (o === undefined) return {};
  const pos = (p: { file: string; line: number; col: number }) => ({ file: p.file, line: p.line, col: p.col });
  const check =
    o.status === 'checked'
      ? {
          status: o.status,
          cubes: o.cubes,
          checked: o.result.checked,
          unchecked: o.result.unchecked.map((u) => ({ ...u, pos: pos(u.pos) })),
          ...(o.result.confirmations !== undefined ? { planner: o.result.confirmations } : {}),
        }
      : { ...o };
  const shown = (i: SemanticIssue) => ({
    address: i.address,
    where: i.where,
    member: i.member,
    role: i.role,
    ...pos(i.pos),
    ...(i.suggestion !== undefined ? { suggestion: i.suggestion } : {}),
    message: i.message,
    by: i.by,
  });
  const issues = o.status === 'checked' ? o.result.issues.map(shown) : [];
  const warnings = o.status === 'checked' ? o.result.warnings.map(shown) : [];
  return { semanticCheck: check, semanticIssues: issues, semanticWarnings: warnings };
}

/** On stderr when the model could not be read: what was tried and why it failed, and what is not checked. */
export function semanticNotRun(o: Extract<SemanticOutcome, { status: 'unavailable' }>, style: Style): string {
  return (
    `${style.c.yellow('warning')} the semantic check did not run: the data model could not be read ` +
    `(${visible(o.why)}). Tried: ${visible(o.tried)}. The ${o.members} member use(s) the bundle names are ` +
    `not checked.\n`
  );
}
