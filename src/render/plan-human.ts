// The plan for people: the list of every address that changes, then one block
// per resource (Terraform-like), the managed fields that change as
// `path: before → after` or as a line diff, then the summary. A compact plan
// (`--compact`, or a plan of more than COMPACT_OVER resources) is the list
// with the changed field names, and the summary. Unchanged resources are only counted.
import type { Plan, ResourceChange } from '../core/plan-model.js';
import { isShown } from '../core/plan/create-only.js';
import type { Style } from './style.js';
import { visible } from '../visible.js';
import { MAP_WIDTH } from '../defaults.js';
import { fieldView, type DiffLine } from './value.js';
import { ownershipLines, uiEditLines, wasLine } from './plan-ownership.js';
import { dashboardLines, dashboardMap, whereText, type DashLine } from './dashboard-diff.js';
import { semanticHuman } from './plan-semantic.js';
import { EDITED_OUTSIDE, revertedParts, revertsEdit } from './plan-drift.js';
import type { SemanticOutcome } from '../core/semantic/outcome.js';
import { addressEntries, addressListLines, compactNote, isCompact, unmanagedLine } from './plan-addresses.js';
import { actionPhrase, actionSymbol, CREATE_ONLY_NOTE, leftAloneLine, summaryLine } from './plan-wording.js';
import type { PlanFlags } from './run-commands.js';

/** The width a layout map is drawn for when the terminal's is not known. */

const SYMBOL_COLOR: Record<string, 'red' | 'green' | 'yellow' | 'cyan' | 'magenta'> = {
  '-': 'red',
  '+': 'green',
  '~': 'yellow',
  '→': 'cyan',
  '↑': 'magenta',
};

function colorSymbol(sym: string, style: Style): string {
  const color = SYMBOL_COLOR[sym];
  return color === undefined ? sym : style.c[color](sym);
}

function diffLine(l: DiffLine, style: Style): string {
  const { c } = style;
  if (l.sign === '@') return c.cyan(l.text);
  if (l.sign === '+') return c.green(`+ ${l.text}`);
  if (l.sign === '-') return c.red(`- ${l.text}`);
  return c.dim(`  ${l.text}`);
}

/** `  (file:line)` after a line, dimmed; nothing when the place is not known. */
function whereSuffix(where: string | undefined, style: Style): string {
  return where === undefined ? '' : `  ${style.c.dim(`(${where})`)}`;
}

function dashLineHuman(l: DashLine, style: Style): string {
  const { c } = style;
  const color = l.sign === '+' ? c.green : l.sign === '-' ? c.red : c.yellow;
  const edited = l.edited ? ` ${c.yellow(EDITED_OUTSIDE)}` : '';
  let out = `      ${color(l.sign)} ${l.text}${edited}${whereSuffix(l.where, style)}\n`;
  for (const d of l.nested ?? []) out += `          ${diffLine(d, style)}\n`;
  return out;
}

export function renderResourceHuman(rc: ResourceChange, style: Style): string {
  const { c } = style;
  const sym = actionSymbol(rc);
  let out = `${colorSymbol(sym, style)} ${c.bold(visible(rc.address))} ${c.dim(actionPhrase(rc))}\n`;
  const [mark, what] = uiEditLines(rc);
  if (mark !== undefined) out += `    ${c.red(mark)}\n    ${c.dim(what!)}\n`;
  if (rc.note !== undefined) out += `    ${c.dim(`note: ${rc.note}`)}\n`;
  const was = wasLine(rc);
  if (was !== undefined) out += `    ${c.dim(was)}\n`;
  if (rc.pos) out += `    ${c.dim(`${visible(rc.pos.file)}:${rc.pos.line}:${rc.pos.col}`)}\n`;
  if (rc.kind === 'report' && rc.livePublicId !== undefined && rc.address !== `report/${rc.livePublicId}`) {
    out += `    ${c.dim(`live publicId ${rc.livePublicId}`)}\n`;
  }
  const file = rc.pos?.file;
  for (const change of rc.changes) {
    // A field edited outside wsc that this apply writes back: said so on its line.
    const edited = revertsEdit(rc, change.path) ? ` ${c.yellow(EDITED_OUTSIDE)}` : '';
    const where = `${edited}${whereSuffix(whereText(file, change), style)}`;
    if (change.dashboard) {
      out += `    ${visible(change.path)}:${where}\n`;
      const reverted = revertedParts(rc, change.path);
      for (const l of dashboardLines(change.dashboard, file, reverted)) out += dashLineHuman(l, style);
      const map = dashboardMap(change, (style.width ?? MAP_WIDTH) - 4);
      for (const l of map) out += l === '' ? '\n' : `    ${c.dim(l)}\n`;
      continue;
    }
    const v = fieldView(change);
    if (v.kind === 'inline') {
      const note = change.createOnly ? ` ${c.red(CREATE_ONLY_NOTE)}` : '';
      out +=
        v.before === undefined
          ? `    ${v.path}: ${c.green(v.after)}${note}${where}\n`
          : `    ${v.path}: ${c.red(v.before)} → ${c.green(v.after)}${note}${where}\n`;
    } else {
      out += `    ${v.path}:${where}\n`;
      const lines =
        v.lines.length > 0
          ? v.lines
          : [{ sign: ' ' as const, text: '(no difference in text; the values differ in type or form)' }];
      for (const l of lines) out += `      ${diffLine(l, style)}\n`;
    }
  }
  if (rc.actions.includes('publish')) out += `    ${c.magenta('↑')} publish the dashboard draft\n`;
  return out;
}

export interface PlanRenderOptions {
  /** `--compact` true, `--no-compact` false; undefined: compact past COMPACT_OVER resources. */
  compact?: boolean;
  /** The semantic check's outcome, shown first. */
  semantic?: SemanticOutcome;
}

export function renderPlanHuman(plan: Plan, style: Style, run?: PlanFlags, opts: PlanRenderOptions = {}): string {
  const { c } = style;
  let out = '';
  const changed = plan.changes.filter(isShown);
  const compact = isCompact(plan, opts.compact);
  out += semanticHuman(opts.semantic, plan.deploymentId, style);
  if (changed.length > 0) {
    out += `${c.dim(
      `wsc will make these changes to deployment ${plan.deploymentId} (environment ${visible(plan.environment)}):`,
    )}\n\n`;
    for (const line of addressListLines(addressEntries(plan), { fields: compact })) {
      out += `${colorSymbol(line.slice(0, line.indexOf(' ')), style)}${line.slice(line.indexOf(' '))}\n`;
    }
    out += '\n';
    if (!compact) for (const rc of changed) out += `${renderResourceHuman(rc, style)}\n`;
  }
  for (const w of plan.warnings ?? []) out += `${c.yellow('warning')} ${visible(w.message)}\n`;
  out += `${c.bold(summaryLine(plan))}\n`;
  out += `${c.dim(leftAloneLine(plan))}\n`;
  for (const line of ownershipLines(plan, run)) out += `${c.yellow(visible(line))}\n`;
  if (compact && changed.length > 0) out += `${c.dim(compactNote(changed.length))}\n`;
  if (plan.unmanaged !== undefined) {
    out += plan.unmanaged.length === 0 ? 'No unmanaged resources.\n' : `Unmanaged resources (left alone):\n`;
    for (const u of plan.unmanaged) out += `  ${unmanagedLine(u)}\n`;
  }
  return out;
}
