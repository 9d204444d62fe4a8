// `--output markdown`: a pull-request comment (and the GitHub step summary).
// A summary table, then one collapsible block per changed resource holding a
// ```diff fence. Values are user content: HTML is escaped outside fences and
// fences are longer than any backtick run inside them.
import { hasChanges, type Plan, type ResourceChange } from '../core/model.js';
import { createOnlyChanges, isShown } from '../core/plan/create-only.js';
import { actionPhrase, actionSymbol, CREATE_ONLY_NOTE, leftAloneLine, summaryLine } from './plan-human.js';
import { fieldView, type DiffLine } from './value.js';
import { ownershipLines, uiEditLines } from './plan-ownership.js';
import { dashboardLines, dashboardMap } from './dashboard-diff.js';
import { visible } from '../visible.js';

export function escapeHtml(s: string): string {
  return s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');
}

/** Inline code inside HTML (`<code>`), safe whatever the text holds. */
function code(s: string): string {
  return `<code>${escapeHtml(visible(s)).replaceAll('`', '&#96;').replaceAll('|', '&#124;')}</code>`;
}

function fence(body: string, lang: string): string {
  const longest = Math.max(0, ...[...body.matchAll(/`+/g)].map((m) => m[0].length));
  const f = '`'.repeat(Math.max(3, longest + 1));
  return `${f}${lang}\n${body}${f}\n`;
}

function diffText(l: DiffLine): string {
  return l.sign === '@' ? l.text : `${l.sign} ${l.text}`;
}

function resourceDiff(rc: ResourceChange): string {
  let out = '';
  for (const change of rc.changes) {
    if (change.dashboard) {
      out += `  ${visible(change.path)}:\n`;
      for (const l of dashboardLines(change.dashboard)) {
        out += `${l.sign === '~' ? '!' : l.sign} ${l.text}\n`;
        for (const d of l.nested ?? []) out += `    ${diffText(d)}\n`;
      }
      continue;
    }
    const v = fieldView(change);
    if (v.kind === 'inline') {
      if (v.before !== undefined) out += `- ${v.path}: ${v.before}\n`;
      out += `+ ${v.path}: ${v.after}${change.createOnly ? ` (${CREATE_ONLY_NOTE})` : ''}\n`;
    } else {
      out += `  ${v.path}:\n`;
      for (const l of v.lines) out += `  ${diffText(l)}\n`;
    }
  }
  if (rc.actions.includes('publish')) out += '+ (publish the dashboard draft)\n';
  return out;
}

/** GitHub refuses comment bodies over 65536 characters; details stop before that. */
export const MARKDOWN_BUDGET = 60_000;

export function renderPlanMarkdown(plan: Plan, opts: { maxChars?: number } = {}): string {
  const budget = opts.maxChars ?? MARKDOWN_BUDGET;
  const s = plan.summary;
  const unmanaged = s.unmanaged.workbooks + s.unmanaged.reports + s.unmanaged.userAttributes;
  let out = `### wsc plan: ${code(plan.environment)} (deployment ${plan.deploymentId})\n\n`;
  out += `**${escapeHtml(summaryLine(plan))}**\n\n`;
  out += '| action | count |\n|---|---:|\n';
  out += `| create | ${s.create} |\n| update | ${s.update} |\n| adopt | ${s.adopt} |\n| publish | ${s.publish} |\n`;
  if (s.delete !== undefined) out += `| delete | ${s.delete} |\n`;
  if (s.record) out += `| ownership record | ${s.record} |\n`;
  out += `| unchanged | ${s.noop} |\n| unmanaged (left alone) | ${unmanaged} |\n`;
  const notes = ownershipLines(plan);
  if (notes.length > 0) out += `\n${notes.map((l) => `> ${escapeHtml(visible(l))}`).join('\n>\n')}\n`;
  if (plan.warnings) out += `\n${plan.warnings.map((w) => `> warning: ${escapeHtml(visible(w.message))}\n`).join('')}`;
  if (!hasChanges(plan) && createOnlyChanges(plan).length === 0) return out;
  out += '\n';
  const changed = plan.changes.filter(isShown);
  const footer = `_${escapeHtml(leftAloneLine(plan))}_\n`;
  for (const [i, rc] of changed.entries()) {
    const where = rc.pos ? ` in ${code(rc.pos.file)}` : '';
    const [mark, what] = uiEditLines(rc);
    const edited = mark !== undefined ? ` **${escapeHtml(mark)}**` : '';
    let block = `<details><summary>${escapeHtml(actionSymbol(rc))} ${code(rc.address)} ${escapeHtml(actionPhrase(rc))}${where}${edited}</summary>\n\n`;
    if (what !== undefined) block += `${escapeHtml(visible(what))}\n\n`;
    if (rc.note !== undefined) block += `_${escapeHtml(visible(`note: ${rc.note}`))}_\n\n`;
    block += fence(resourceDiff(rc), 'diff');
    for (const change of rc.changes) {
      const map = dashboardMap(change, 100).slice(1);
      if (map.length > 0) block += `\n${fence(`${map.join('\n')}\n`, 'text')}`;
    }
    block += '\n</details>\n\n';
    if (out.length + block.length + footer.length + 200 > budget) {
      const rest = changed.length - i;
      out += `_…and ${rest} more resource${rest === 1 ? '' : 's'} with changes, left out to fit a comment: run \`wsc plan\` for the full plan._\n\n`;
      break;
    }
    out += block;
  }
  out += footer;
  return out;
}
