// What a card says it is, from its widget and the report it charts: a CHART's
// glyph and visualization, a FILTER's label and member, a TIME_GRAIN's default
// and options, a TEXT widget's markdown; and the widget's config as the file
// writes it (YAML, the file's key order) with the line it starts on.
import { dump } from 'js-yaml';
import { isObj, type JsonValue } from '../core/json.js';
import type { Locate } from '../core/model.js';
import { glyphOf, type GlyphKind } from './glyphs.js';
import { markdownHtml } from './markdown.js';

/** A value as the file would write it: YAML in its key order. */
export interface Shown {
  yaml: string;
  /** The line it starts on in its file, when the file writes it. */
  line?: number;
}

export interface CardContent {
  /** CHART: the glyph of its visualization (from the widget's config, else the report's `meta.chart.type`). */
  glyph?: GlyphKind;
  visualization?: string;
  /** FILTER */
  filter?: { label?: string; member?: string };
  /** TIME_GRAIN */
  grain?: { default?: string; options: string[] };
  /** A TEXT widget's markdown, its HTML for the page and its lines of text for the SVG. */
  text?: string;
  html?: string;
  textLines?: string[];
  /** The widget's line in its file. */
  line?: number;
  config?: Shown;
}

function str(v: JsonValue | undefined): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/** YAML of a value, in the key order it was written in (a JSON text parsed first). */
export function yamlOf(v: JsonValue, fromJsonText = false): string {
  let value: unknown = v;
  if (fromJsonText && typeof v === 'string') {
    try {
      value = JSON.parse(v);
    } catch {
      return v;
    }
  }
  return dump(value, { lineWidth: -1, noRefs: true, flowLevel: -1 }).replace(/\n$/, '');
}

/** The lines of a TEXT widget's markdown that hold text, heading marks and emphasis left out. */
function plainLines(text: string): string[] {
  return text
    .split('\n')
    .map((l) =>
      l
        .replace(/^\s*(#+|[-*+]|\d+\.)\s+/, '')
        .replace(/[*_`]/g, '')
        .trim(),
    )
    .filter((l) => l !== '');
}

/**
 * The content of the widget at `index` of the draft at `draftPath` in its file (`locate` gives places);
 * `chartType` is the report's `meta.chart.type`, for a CHART whose config names no visualization.
 */
export function cardContent(
  widget: { [k: string]: JsonValue },
  chartType: string | undefined,
  at: { locate?: Locate | undefined; path: (string | number)[] },
): CardContent {
  const out: CardContent = {};
  const config = widget['config'];
  const c = isObj(config) ? config : {};
  const type = str(widget['type']);
  if (type === 'CHART') {
    const v = str(c['visualization']) ?? chartType;
    out.glyph = glyphOf(v);
    if (v !== undefined) out.visualization = v;
  } else if (type === 'FILTER') {
    const label = str(c['label']);
    const member = str(c['member']);
    out.filter = { ...(label !== undefined ? { label } : {}), ...(member !== undefined ? { member } : {}) };
  } else if (type === 'TIME_GRAIN') {
    const d = str(c['default']);
    const options = Array.isArray(c['options']) ? c['options'].filter((o) => typeof o === 'string') : [];
    out.grain = { ...(d !== undefined ? { default: d } : {}), options };
  }
  const content = str(c['content']) ?? str(c['markdown']) ?? str(c['text']);
  if (content !== undefined) {
    out.text = content;
    out.html = markdownHtml(content);
    out.textLines = plainLines(content);
  }
  const line = at.locate?.(at.path)?.line;
  if (line !== undefined) out.line = line;
  if (config !== undefined && config !== null) {
    const configLine = at.locate?.([...at.path, 'config'])?.line;
    out.config = { yaml: yamlOf(config), ...(configLine !== undefined ? { line: configLine } : {}) };
  }
  return out;
}
