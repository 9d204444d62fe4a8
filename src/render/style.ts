// Colour and spinners are decided here, once, from the terminal and the
// environment; renderers receive a Style and never look at the process.
// (chalk and ora ignore NO_COLOR by themselves, so wsc decides for them.)
import { Chalk, type ChalkInstance } from 'chalk';
import type { Settings } from '../env.js';

export interface TerminalFacts {
  isTTY: boolean;
  columns: number | undefined;
  /** NO_COLOR, CI, COLUMNS and TERM as src/env.ts read them. */
  settings: Pick<Settings, 'noColor' | 'ci' | 'columns' | 'dumbTerminal'>;
  /** `--no-color` given. */
  noColorFlag: boolean;
  /** The width of the terminal stdout writes to, when it is one. */
  outColumns?: number | undefined;
}

export interface Style {
  color: boolean;
  /** A spinner only on a real terminal with a width, and never in CI (ora spins forever on 0 columns). */
  spinner: boolean;
  c: ChalkInstance;
  /** Characters a line of output may take: the terminal's columns, else `COLUMNS`; undefined when neither says. */
  width?: number;
}

/** The terminal's width, else `COLUMNS` (a pipe has none; shells and CI set it for programs that ask). */
function widthOf(t: TerminalFacts): number | undefined {
  if (t.outColumns !== undefined && t.outColumns > 0) return t.outColumns;
  return t.settings.columns;
}

export function decideStyle(t: TerminalFacts): Style {
  const ci = t.settings.ci !== undefined && t.settings.ci !== 'false';
  const color = t.isTTY && !t.settings.noColor && !t.noColorFlag && !t.settings.dumbTerminal;
  // A spinner is escape sequences too (cursor and line control): none when colour is turned off.
  const spinner = color && (t.columns ?? 0) > 0 && !ci;
  const width = widthOf(t);
  return { color, spinner, c: new Chalk({ level: color ? 1 : 0 }), ...(width !== undefined ? { width } : {}) };
}

/** A style with no colour, for tests and files. */
export const plainStyle: Style = { color: false, spinner: false, c: new Chalk({ level: 0 }) };
