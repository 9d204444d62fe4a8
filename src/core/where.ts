// Where a message about a bundle file points: `file:line:col: `, the prefix
// of every planner and reference error.
import type { SourcePos } from '../errors.js';

export function at(pos: SourcePos | undefined): string {
  return pos ? `${pos.file}:${pos.line}:${pos.col}: ` : '';
}
