// The js-yaml schema bundle files are read with: YAML 1.2 core scalars (as
// the `yaml` library, which writes bundle files, resolves them: `1_000`,
// `0b1`, `yes` and `2024-01-01` are strings), and any other tag read as a
// RefusedTag for the walk to report (plain data only: no `!!binary`, no
// `!!js/function`, no `!custom`).
import { randomUUID } from 'node:crypto';
import jsyaml from 'js-yaml';

/**
 * What a key with a refused tag becomes: js-yaml turns a key node into a
 * string with String(). A NUL and a fresh UUID: no key written in a file
 * holds it.
 */
export const REFUSED_KEY = `\u0000${randomUUID()}\u0000`;

/** The value of a node whose tag is not plain data; `tag` as js-yaml resolved it. */
export class RefusedTag {
  constructor(readonly tag: string) {}

  // Not `[object Object]` (which js-yaml gives any mapping used as a key), so that String() is called.
  get [Symbol.toStringTag](): string {
    return 'RefusedTag';
  }

  toString(): string {
    return REFUSED_KEY + this.tag + REFUSED_KEY;
  }
}

const NULL: ReadonlySet<string> = new Set(['~', 'null', 'Null', 'NULL', '']);
const TRUE: ReadonlySet<string> = new Set(['true', 'True', 'TRUE']);
const FALSE: ReadonlySet<string> = new Set(['false', 'False', 'FALSE']);
const INT = /^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$/;
const FLOAT =
  /^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/;

const isString = (s: unknown): s is string => typeof s === 'string';

function toNumber(s: string): number {
  if (s.startsWith('0o')) return parseInt(s.slice(2), 8);
  if (s.startsWith('0x')) return parseInt(s.slice(2), 16);
  if (/^[-+]?[0-9]+$/.test(s)) return parseInt(s, 10);
  if (/\.(?:nan|NaN|NAN)$/.test(s)) return NaN;
  if (/\.(?:inf|Inf|INF)$/.test(s)) return s.startsWith('-') ? -Infinity : Infinity;
  return parseFloat(s);
}

const scalar = (tag: string, test: (s: string) => boolean, construct: (s: string) => unknown) =>
  new jsyaml.Type(`tag:yaml.org,2002:${tag}`, {
    kind: 'scalar',
    resolve: (s: unknown) => isString(s) && test(s),
    construct,
  });

const nullType = scalar(
  'null',
  (s) => NULL.has(s),
  () => null,
);
const boolType = scalar(
  'bool',
  (s) => TRUE.has(s) || FALSE.has(s),
  (s) => TRUE.has(s),
);
// Integers and floats resolve alike: only the number read matters here.
const isNumber = (s: string) => INT.test(s) || FLOAT.test(s);
const floatType = scalar('float', isNumber, toNumber);
const intType = scalar('int', isNumber, toNumber);

/** Any tag of any kind of node the types above do not take: `construct` gets the tag. */
const refused = (['scalar', 'sequence', 'mapping'] as const).map(
  (kind) =>
    new jsyaml.Type('', {
      kind,
      multi: true,
      resolve: () => true,
      construct: (_data: unknown, tag?: string) => new RefusedTag(tag ?? ''),
    }),
);

export const SCHEMA = jsyaml.FAILSAFE_SCHEMA.extend({
  implicit: [nullType, boolType, floatType],
  explicit: [intType, ...refused],
});
