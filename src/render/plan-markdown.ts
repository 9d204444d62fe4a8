// `--output markdown`: a pull-request comment (and the GitHub step summary).
// A summary table, the list of every address that changes (never cut), then
// one collapsible block per changed resource holding a ```diff fence whose
// lines start with `+`, `-` or a space at column 0 (GitHub colours them).
// Values are user content: HTML is escaped outside fences and fences are
// longer than any backtick run inside them.
import type { Plan, ResourceChange } from '../core/plan-model.js';
import { isShown } from '../core/plan/create-only.js';
import { addressEntries, addressListLines, compactNote, isCompact } from './plan-addresses.js';
import { actionPhrase, actionSymbol, CREATE_ONLY_NOTE, leftAloneLine, summaryLine } from './plan-wording.js';
import { fieldView, type DiffLine } from './value.js';
import { ownershipNotes, uiEditLines, wasLine } from './plan-ownership.js';
import { dashboardLines, dashboardMap, whereText } from './dashboard-diff.js';
import { plural } from './diagnostics.js';
import { visible } from '../visible.js';
import type { SemanticOutcome } from '../core/semantic/outcome.js';
import { semanticMarkdown } from './plan-semantic.js';
import { driftSection, EDITED_OUTSIDE, revertedParts, revertsEdit } from './plan-drift.js';
import { driftCommand, planCommand, type PlanFlags } from './run-commands.js';

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
    const where = `${revertsEdit(rc, change.path) ? ` ${EDITED_OUTSIDE}` : ''}${at(whereText(file, change))}`;
    if (change.dashboard) {
      out += `  ${visible(change.path)}:${where}\n`;
      for (const l of dashboardLines(change.dashboard, file, revertedParts(rc, change.path))) {
        // The mark goes on what the apply writes (the `+` line of a change), as on a field's line.
        const here = `${l.edited ? ` ${EDITED_OUTSIDE}` : ''}${at(l.where)}`;
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

/** Where the details left out of a comment are: the run's plan, in full. */
const seeAll = (run?: PlanFlags) =>
  `see them with \`${planCommand('--output human --no-compact', run)}\` or in the JSON plan ` +
  `(\`${planCommand('--output json', run)}\`)`;

/** Where every difference left out of a comment's drift lines is. */
const seeDrift = (run?: PlanFlags) =>
  `see them all with \`${driftCommand('', run)}\`, \`${planCommand('--output human', run)}\` or in the JSON ` +
  'plan (`drift`)';

/** A blockquote of notes, one paragraph each. */
function quote(lines: readonly string[]): string {
  return lines.map((l) => `> ${escapeHtml(visible(l))}`).join('\n>\n');
}

/**
 * The drift lines within `room` characters: the heading, then entries and ways forward while they fit, then
 * how many are left out and where they all are. Each line is a paragraph of the notes' blockquote.
 */
function driftQuote(plan: Plan, room: number, run?: PlanFlags): string {
  const s = driftSection(plan, run);
  if (s === undefined) return '';
  let out = `\n${quote([s.heading])}\n`;
  const lines = [...s.entries, ...s.ways];
  for (const [i, line] of lines.entries()) {
    const next = `>\n${quote([line])}\n`;
    // Room is kept for the line that says what is left out.
    if (out.length + next.length + 300 > room) {
      const entries = Math.max(0, s.entries.length - i);
      const ways = lines.length - Math.max(i, s.entries.length);
      const what = [
        ...(entries > 0 ? [`${plural(entries, 'more field')} that ${entries === 1 ? 'differs' : 'differ'}`] : []),
        ...(ways > 0 ? [`the ways forward of ${ways} more ${ways === 1 ? 'address' : 'addresses'}`] : []),
      ].join(', and ');
      return `${out}>\n${quote([`… and ${what}: left out to fit a comment; ${seeDrift(run)}.`])}\n`;
    }
    out += next;
  }
  return out;
}

export interface MarkdownOptions {
  maxChars?: number;
  /** `plan --pictures DIR`: the pictures written there (SVG and PNG per breakpoint), named per dashboard. */
  pictures?: { dir: string; written: readonly { name: string; slug: string }[] };
  /** `--compact` true, `--no-compact` false; undefined: compact past COMPACT_OVER resources. */
  compact?: boolean;
  /** The semantic check's outcome, shown under the summary. */
  semantic?: SemanticOutcome;
  /** The run's --dir, deployment and plan flags, for the commands the ways forward print. */
  run?: PlanFlags;
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
 * The pictures `plan --pictures DIR` wrote, per dashboard drawn (those whose draft changes, and those that
 * chart a report that changes): the PNG a comment can show, the SVG beside it, one pair per breakpoint.
 */
function picturesSection(pictures: NonNullable<MarkdownOptions['pictures']>): string {
  const bySlug = new Map<string, string[]>();
  for (const f of pictures.written) {
    if (!f.name.endsWith('.png')) continue;
    const svg = f.name.replace(/\.png$/, '.svg');
    bySlug.set(f.slug, [...(bySlug.get(f.slug) ?? []), `${code(f.name)} (${code(svg)})`]);
  }
  if (bySlug.size === 0) return `**Pictures**: no dashboard changed; nothing drawn in ${code(pictures.dir)}.\n\n`;
  let out = `**Pictures of the changed dashboards** in ${code(pictures.dir)} (PNG, and SVG beside):\n\n`;
  out += '| dashboard | pictures |\n|---|---|\n';
  for (const [slug, files] of bySlug) out += `| ${code(`workbook/${slug}`)} | ${files.join(', ')} |\n`;
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
  const notes = ownershipNotes(plan, opts.run);
  if (notes.length > 0) out += `\n${quote(notes)}\n`;
  const changed = plan.changes.filter(isShown);
  const compact = isCompact(plan, opts.compact);
  // Every address, whatever the budget: a reviewer must see all that the apply would touch.
  const list =
    changed.length === 0
      ? ''
      : `\n${fence(`${addressListLines(addressEntries(plan), { fields: compact }).join('\n')}\n`, 'diff')}\n`;
  const pictures = opts.pictures !== undefined && changed.length > 0 ? picturesSection(opts.pictures) : '';
  const footer = `_${escapeHtml(leftAloneLine(plan))}_\n`;
  const rest = unmanagedSection(plan);
  const warnings = (plan.warnings ?? []).map((w) => `> warning: ${escapeHtml(visible(w.message))}\n`).join('');
  // The drift lines share what the list, pictures, warnings and footer leave: half of it when details follow.
  const room = budget - out.length - list.length - pictures.length - rest.length - warnings.length - footer.length;
  out += driftQuote(plan, compact || changed.length === 0 ? room : room / 2, opts.run);
  if (warnings !== '') out += `\n${warnings}`;
  out += rest;
  if (changed.length === 0) return out;
  out += list + pictures;
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
      out += `_The details of ${what} are left out to fit a comment (all are named above): ${seeAll(opts.run)}._\n\n`;
      break;
    }
    out += block;
  }
  out += footer;
  return out;
}
