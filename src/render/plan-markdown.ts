// `--output markdown`: a pull-request comment (and the GitHub step summary).
// A summary table, the list of every address that changes (never cut), then
// one collapsible block per changed resource holding a ```diff fence whose
// lines start with `+`, `-` or a space at column 0 (GitHub colours them).
// Values are user content: HTML is escaped outside fences and fences are
// longer than any backtick run inside them.
import type { Plan, ResourceChange } from '../core/plan-model.js';
import { pictureBreakpoints, pictureName, pictureStems } from '../core/picture-names.js';
import { isShown } from '../core/plan/create-only.js';
import { addressEntries, addressListLines, compactNote, isCompact } from './plan-addresses.js';
import { actionPhrase, actionSymbol, CREATE_ONLY_NOTE, leftAloneLine, summaryLine } from './plan-wording.js';
import { fieldView, type DiffLine } from './value.js';
import { ownershipLines, uiEditLines, wasLine } from './plan-ownership.js';
import { dashboardLines, dashboardMap, whereText } from './dashboard-diff.js';
import { plural } from './diagnostics.js';
import { visible } from '../visible.js';
import type { SemanticOutcome } from '../core/semantic/outcome.js';
import { semanticMarkdown } from './plan-semantic.js';
import { EDITED_OUTSIDE, revertsEdit } from './plan-drift.js';

function escapeHtml(s: string): string {
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

/** A diff line at column 0, as GitHub colours it: `+`, `-`, space; hunk headers as they are. */
function diffText(l: DiffLine, indent = ''): string {
  return l.sign === '@' ? l.text : `${l.sign} ${indent}${l.text}`;
}

/** The body of a resource's ```diff fence: every line starts with `+`, `-`, a space or `@@`. */
function resourceDiff(rc: ResourceChange): string {
  let out = '';
  const file = rc.pos?.file;
  const at = (where: string | undefined) => (where === undefined ? '' : `  (${where})`);
  for (const change of rc.changes) {
    const where = `${revertsEdit(rc, change.path) ? ` ${EDITED_OUTSIDE}` : ''}${at(whereText(file, change.line))}`;
    if (change.dashboard) {
      out += `  ${visible(change.path)}:${where}\n`;
      for (const l of dashboardLines(change.dashboard, file)) {
        const here = at(l.where);
        if (l.nested !== undefined) {
          out += `  ${l.text}${here}\n`;
          for (const d of l.nested) out += `${diffText(d, '    ')}\n`;
        } else if (l.sign === '~') {
          out += l.before !== undefined ? `- ${l.before}\n+ ${l.after!}${here}\n` : `  ${l.text}${here}\n`;
        } else {
          out += `${l.sign} ${l.text}${here}\n`;
        }
      }
      continue;
    }
    const v = fieldView(change);
    if (v.kind === 'inline') {
      if (v.before !== undefined) out += `- ${v.path}: ${v.before}\n`;
      out += `+ ${v.path}: ${v.after}${change.createOnly ? ` (${CREATE_ONLY_NOTE})` : ''}${where}\n`;
    } else if (v.lines[0]?.sign === '@') {
      if (where !== '') out += `  ${v.path}:${where}\n`;
      for (const l of v.lines) out += `${diffText(l)}\n`;
    } else {
      // A whole value added or removed: its name, then the value under it.
      const sign = v.lines[0]?.sign === '-' ? '-' : '+';
      out += `${sign} ${v.path}:${where}\n`;
      for (const l of v.lines) out += `${diffText(l, '  ')}\n`;
    }
  }
  if (rc.actions.includes('publish')) out += '+ (publish the dashboard draft)\n';
  return out;
}

/** GitHub refuses comment bodies over 65536 characters; details stop before that (the address list never does). */
const MARKDOWN_BUDGET = 60_000;

/** Where the details left out of a comment are. */
const SEE_ALL = 'see them with `wsc plan --output human --no-compact` or in the JSON plan (`wsc plan --output json`)';

export interface MarkdownOptions {
  maxChars?: number;
  /** Where `wsc preview --out DIR --against …` put its pictures: each changed dashboard's are named. */
  pictures?: string;
  /** `--compact` true, `--no-compact` false; undefined: compact past COMPACT_OVER resources. */
  compact?: boolean;
  /** The semantic check's outcome, shown under the summary. */
  semantic?: SemanticOutcome;
}

function unmanagedSection(plan: Plan): string {
  if (plan.unmanaged === undefined) return '';
  if (plan.unmanaged.length === 0) return '\nNo unmanaged resources.\n';
  let out = `\n<details><summary>${plural(plan.unmanaged.length, 'unmanaged resource')} (left alone)</summary>\n\n`;
  out += '| kind | id | name | slug or publicId |\n|---|---:|---|---|\n';
  for (const u of plan.unmanaged) {
    out += `| ${u.kind} | ${u.id} | ${code(u.name)} | ${u.identity !== undefined ? code(u.identity) : ''} |\n`;
  }
  return `${out}\n</details>\n`;
}

/**
 * The pictures of each changed dashboard, as `wsc preview --out DIR --against …` names them: a table
 * from the workbook to its files, one per breakpoint drawn.
 */
function picturesSection(changed: readonly ResourceChange[], dir: string): string {
  const drafts = changed.flatMap((rc) => {
    const c = rc.kind === 'workbook' ? rc.changes.find((f) => f.path === 'meta.dashboardDraft') : undefined;
    // A draft sent again with nothing of it changed (a reference resolved at apply) gets no picture.
    const d = c?.dashboard;
    if (c === undefined || (d !== undefined && c.before !== undefined && d.widgets.length + d.members.length === 0))
      return [];
    return [{ rc, c, slug: rc.address.slice('workbook/'.length) }];
  });
  if (drafts.length === 0) return '';
  const stems = pictureStems(drafts.map((d) => d.slug));
  let out = `**Pictures of the changed dashboards** in ${code(dir)}:\n\n| dashboard | pictures |\n|---|---|\n`;
  for (const { rc, c, slug } of drafts) {
    const files = pictureBreakpoints(c.after ?? undefined, c.before ?? undefined).map((bp) =>
      code(pictureName(stems.get(slug)!, bp)),
    );
    out += `| ${code(rc.address)} | ${files.join(', ')} |\n`;
  }
  return `${out}\n`;
}

export function renderPlanMarkdown(plan: Plan, opts: MarkdownOptions = {}): string {
  const budget = opts.maxChars ?? MARKDOWN_BUDGET;
  const s = plan.summary;
  const unmanaged = s.unmanaged.workbooks + s.unmanaged.reports + s.unmanaged.userAttributes;
  let out = `### wsc plan: ${code(plan.environment)} (deployment ${plan.deploymentId})\n\n`;
  out += `**${escapeHtml(summaryLine(plan))}**\n\n`;
  out += '| action | count |\n|---|---:|\n';
  out += `| create | ${s.create} |\n| update | ${s.update} |\n| adopt | ${s.adopt} |\n| publish | ${s.publish} |\n`;
  if (s.delete !== undefined) out += `| delete | ${s.delete} |\n`;
  if (s.record) out += `| ownership record | ${s.record} |\n`;
  if (s.blocked) out += `| blocked | ${s.blocked} |\n`;
  out += `| unchanged | ${s.noop} |\n| unmanaged (left alone) | ${unmanaged} |\n`;
  out += semanticMarkdown(opts.semantic, plan.deploymentId, { escape: escapeHtml, code });
  const notes = ownershipLines(plan);
  if (notes.length > 0) out += `\n${notes.map((l) => `> ${escapeHtml(visible(l))}`).join('\n>\n')}\n`;
  if (plan.warnings) out += `\n${plan.warnings.map((w) => `> warning: ${escapeHtml(visible(w.message))}\n`).join('')}`;
  out += unmanagedSection(plan);
  const changed = plan.changes.filter(isShown);
  if (changed.length === 0) return out;
  const compact = isCompact(plan, opts.compact);
  // Every address, whatever the budget: a reviewer must see all that the apply would touch.
  const list = addressListLines(addressEntries(plan), { fields: compact });
  out += `\n${fence(`${list.join('\n')}\n`, 'diff')}\n`;
  if (opts.pictures !== undefined) out += picturesSection(changed, opts.pictures);
  const footer = `_${escapeHtml(leftAloneLine(plan))}_\n`;
  if (compact) return `${out}_${escapeHtml(compactNote(changed.length))}_\n\n${footer}`;
  for (const [i, rc] of changed.entries()) {
    const where = rc.pos ? ` in ${code(rc.pos.file)}` : '';
    const [mark, what] = uiEditLines(rc);
    const edited = mark !== undefined ? ` **${escapeHtml(mark)}**` : '';
    let block =
      `<details><summary>${escapeHtml(actionSymbol(rc))} ${code(rc.address)} ` +
      `${escapeHtml(actionPhrase(rc))}${where}${edited}</summary>\n\n`;
    if (what !== undefined) block += `${escapeHtml(visible(what))}\n\n`;
    if (rc.note !== undefined) block += `_${escapeHtml(visible(`note: ${rc.note}`))}_\n\n`;
    const was = wasLine(rc);
    if (was !== undefined) block += `_${escapeHtml(was)}_\n\n`;
    block += fence(resourceDiff(rc), 'diff');
    for (const change of rc.changes) {
      const map = dashboardMap(change, 100).slice(1);
      if (map.length > 0) block += `\n${fence(`${map.join('\n')}\n`, 'text')}`;
    }
    block += '\n</details>\n\n';
    if (out.length + block.length + footer.length + 300 > budget) {
      const rest = changed.length - i;
      const what = `${rest} of ${plural(changed.length, 'resource')}`;
      out += `_The details of ${what} are left out to fit a comment (all are named above): ${SEE_ALL}._\n\n`;
      break;
    }
    out += block;
  }
  out += footer;
  return out;
}
