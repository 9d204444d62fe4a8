// What `wsc export` tells the user: what it wrote, what apply will do with
// the resources export had to give an identity to, and what it could not
// turn into references. Human text (lists cut after a few lines; the JSON
// form has everything) and a stable JSON summary.
import type { ExportSummary, ExportWarning } from '../core/export/index.js';
import type { Style } from './style.js';
import { visible } from '../visible.js';
import { shellArg } from './run-commands.js';

export interface ExportRunFacts {
  /** The output directory as the user named it. */
  outDir: string;
  environment: string;
  /** wsc.yaml was written (it was absent). */
  configWritten: boolean;
  /** The environment read is the embedded emulator (no token). */
  embedded?: boolean;
  /** Bundle files in the output directory that this export did not write. */
  stale: string[];
  /** Of the bundle files this export wrote, how many were new or changed (the rest already held their text). */
  changed: number;
}

const SHOWN = 10;

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

function cut<T>(items: T[], line: (t: T) => string): string[] {
  const out = items.slice(0, SHOWN).map((t) => `  ${line(t)}`);
  if (items.length > SHOWN) out.push(`  … and ${items.length - SHOWN} more (--output json lists all)`);
  return out;
}

/** One line per warning, for stderr. */
export function renderExportWarnings(warnings: readonly ExportWarning[], style: Style): string {
  return warnings
    .map((w) => `${style.c.yellow('warning')} ${w.file ? `${visible(w.file)}: ` : ''}${visible(w.message)}\n`)
    .join('');
}

export function renderExportHuman(s: ExportSummary, f: ExportRunFacts, style: Style): string {
  const { c } = style;
  const total = s.files.workbooks + s.files.reports + s.files.userAttributes;
  const lines: string[] = [
    `Exported deployment ${s.deploymentId} to ${f.outDir}: ` +
      `${plural(s.files.workbooks, 'workbook')}, ` +
      `${plural(s.files.reports, 'report')}, ` +
      `${plural(s.files.userAttributes, 'user attribute')} ` +
      `(${plural(total, 'file')}` +
      (f.changed < total ? `; ${f.changed} new or changed, ${total - f.changed} already up to date` : '') +
      ').',
  ];
  lines.push(
    !f.configWritten
      ? 'Kept the existing wsc.yaml.'
      : f.embedded
        ? `Wrote wsc.yaml: environment ${f.environment} (embedded).`
        : `Wrote wsc.yaml: environment ${f.environment}, token read from WSC_TOKEN (never stored).`,
  );

  lines.push(...adoptionLines(s, style));
  if (s.published.length > 0) {
    lines.push(
      '',
      `${plural(s.published.length, 'workbook')} ${s.published.length === 1 ? 'is' : 'are'} published with the ` +
        'draft as it is: written with `publish: true`.',
    );
  }
  lines.push(...warningCounts(s.warnings, style));
  if (f.stale.length > 0) {
    lines.push(
      '',
      c.yellow(
        `${plural(f.stale.length, 'file')} in ${f.outDir} ` +
          `${f.stale.length === 1 ? 'was' : 'were'} not written by this export ` +
          `and will be read as part of the bundle:`,
      ),
      ...cut(f.stale, visible),
    );
  }
  const out = shellArg(f.outDir);
  const plan =
    `wsc plan --dir ${out}` +
    (s.adoptions.length + s.derivedSlugs.length > 0 ? ' (the adoptions show as "adopt")' : '');
  // Files beside the snapshot are read with it: a bundle kept there holds the same resources twice.
  lines.push(
    '',
    f.stale.length > 0
      ? `Next: delete those files unless they belong in the bundle, then: ${plan}. To update a bundle kept in ` +
          `Git in place, with its files, comments and names, export with \`--into ${out}\` instead of \`--out\`.`
      : `Next: ${plan}`,
  );
  return `${lines.join('\n')}\n`;
}

/** The reports and workbooks export gave a publicId or a slug of their own, each with an adopt block. */
function adoptionLines(s: ExportSummary, style: Style): string[] {
  const { c } = style;
  const lines: string[] = [];
  if (s.adoptions.length > 0) {
    lines.push(
      '',
      c.bold(`${plural(s.adoptions.length, 'report')} had no stable publicId and got a new one with an adopt block.`),
      `On apply to deployment ${s.deploymentId}, each live report is given ` +
        `its publicId (PUT /reports/{id}); nothing is created.`,
      ...cut(
        s.adoptions,
        (a) =>
          `${a.file}: report ${a.reportId} → ${a.publicId} ` +
          (a.reason === 'none'
            ? '(it had no publicId)'
            : a.reason === 'placeholder'
              ? `(placeholder ${a.livePublicId})`
              : `(${a.livePublicId} is shared by several reports)`),
      ),
    );
  }
  const unsafe = s.derivedSlugs.filter((d) => d.unsafeSlug !== undefined);
  const slugless = s.derivedSlugs.filter((d) => d.unsafeSlug === undefined);
  if (unsafe.length > 0) {
    lines.push(
      '',
      c.bold(
        `${plural(unsafe.length, 'workbook')} had a slug a bundle cannot hold (it would not be one segment ` +
          'of a request path); export gave each a safe one, with an adopt block.',
      ),
      `On apply to deployment ${s.deploymentId}, each live workbook is given ` +
        `its new slug (PUT /workbooks/{id}); nothing is created. Links that use the old slug stop working.`,
      ...cut(
        unsafe,
        (d) => `${d.file}: ${JSON.stringify(visible(d.unsafeSlug!))} (workbook ${d.workbookId}) → slug ${d.slug}`,
      ),
    );
  }
  if (slugless.length > 0) {
    lines.push(
      '',
      c.bold(
        `${plural(slugless.length, 'workbook')} had no slug; export ` +
          `derived one from the name, with an adopt block.`,
      ),
      `On apply to deployment ${s.deploymentId}, each live workbook is given ` +
        `its slug (PUT /workbooks/{id}); nothing is created`,
      'and its reports stay where they are. In any other deployment the slug is created as usual.',
      ...cut(
        slugless,
        (d) =>
          `${d.file}: "${visible(d.name)}" (workbook ${d.workbookId}) → slug ` +
          `${d.slug}${d.reports > 0 ? ` (${plural(d.reports, 'report')} in it)` : ''}`,
      ),
    );
  }
  return lines;
}

/** What each export warning code counts, in the summary on stdout. */
const WARNING_LABELS: Record<string, string> = {
  'dangling-workbook': 'workbook ids kept as numbers (the workbook is not exported)',
  'dangling-report': 'report ids kept as numbers (the report is not exported)',
  'dangling-folder': 'folder ids kept as numbers (the folder cannot be named by path)',
  'field-dropped': 'values left unmanaged (a bundle cannot hold them as they are)',
  'per-deployment-ids': 'note on per-deployment publicIds',
  'user-attributes-unreadable': 'user attributes not readable with this token (not exported)',
  'report-id-kept': 'numbers in dashboards that look like report ids and were kept as they are',
  'resource-skipped': 'resources not exported (the server sent values this version of wsc does not read)',
  'publish-differs': 'published dashboards that differ from their draft (written without `publish: true`)',
  'widget-named': 'widgets whose id was empty or repeated, given one (the next apply writes it)',
};

/** The warnings (written on stderr) counted by kind. */
function warningCounts(warnings: ExportSummary['warnings'], style: Style): string[] {
  if (warnings.length === 0) return [];
  const byCode = new Map<string, number>();
  for (const w of warnings) byCode.set(w.code, (byCode.get(w.code) ?? 0) + 1);
  const lines = ['', style.c.yellow(`${plural(warnings.length, 'warning')} (on stderr):`)];
  for (const [code, n] of [...byCode].sort()) lines.push(`  ${n} ${WARNING_LABELS[code] ?? code}`);
  return lines;
}

export function renderExportJson(s: ExportSummary, f: ExportRunFacts): string {
  const out = {
    formatVersion: 1,
    deploymentId: s.deploymentId,
    outDir: f.outDir,
    environment: f.environment,
    configWritten: f.configWritten,
    files: s.files,
    adoptions: s.adoptions,
    derivedSlugs: s.derivedSlugs,
    published: s.published,
    warnings: s.warnings,
    stale: f.stale,
    written: s.written,
    changed: f.changed,
  };
  return `${JSON.stringify(out, null, 2)}\n`;
}
