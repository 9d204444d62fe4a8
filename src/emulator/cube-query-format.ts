// The query format Cube's REST API checks before it plans a query (its Joi
// schema), with Cube's own texts: the first violation in the order Cube
// checks the keys ("Invalid query format: …"), then the rules of its query
// normalisation (a query must select something; filter values). Answers are
// 400 `{error}`, without the `type: "UserError"` the planner's errors carry
// (the REST layer's errors and the planner's are different classes in Cube;
// test/e2e/cube-contract.test.ts holds the two to the open-source server).
import { HttpError } from './http-error.js';

/** An error as Cube's REST API answers it: `{error}`, or `{type: "UserError", error}` from the planner. */
export class CubeError extends HttpError {
  constructor(
    message: string,
    readonly userError: boolean,
    status = 400,
  ) {
    super(status, message);
  }
  override body(): Record<string, unknown> {
    return this.userError ? { type: 'UserError', error: this.message } : { error: this.message };
  }
}

const formatError = (m: string) => new CubeError(`Invalid query format: ${m}`, false);

const ID = /^[a-zA-Z0-9_]+\.[a-zA-Z0-9_]+$/;
const DIMENSION_WITH_TIME = /^[a-zA-Z0-9_]+\.[a-zA-Z0-9_]+(\.[a-zA-Z0-9_]+)?$/;
const ORDER_KEY = /^[a-zA-Z0-9_]+\.[a-zA-Z0-9_]+$|^[a-zA-Z0-9_]+$|^[a-zA-Z0-9_]+\.[a-zA-Z0-9_]+\.[a-zA-Z0-9_]+$/;

const OPERATORS = new Set([
  'equals',
  'notEquals',
  'contains',
  'notContains',
  'startsWith',
  'notStartsWith',
  'endsWith',
  'notEndsWith',
  'in',
  'notIn',
  'gt',
  'gte',
  'lt',
  'lte',
  'set',
  'notSet',
  'inDateRange',
  'notInDateRange',
  'onTheDate',
  'beforeDate',
  'beforeOrOnDate',
  'afterDate',
  'afterOrOnDate',
  'measureFilter',
]);

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const q = (v: unknown) => JSON.stringify(v);

/** A string matching `re`, as Joi words a mismatch. */
function pattern(label: string, v: unknown, re: RegExp): void {
  if (typeof v !== 'string') throw formatError(`"${label}" does not match any of the allowed types`);
  if (!re.test(v))
    throw formatError(`"${label}" with value ${q(v)} fails to match the required pattern: ${String(re)}`);
}

function memberList(query: Obj, key: string, re: RegExp): void {
  const v = query[key];
  if (v === undefined) return;
  if (!Array.isArray(v)) throw formatError(`"${key}" must be an array`);
  v.forEach((m, i) => pattern(`${key}[${i}]`, m, re));
}

function isFilter(f: unknown): boolean {
  if (!isObj(f)) return false;
  if ('or' in f || 'and' in f) {
    const keys = Object.keys(f);
    if (keys.length !== 1 || !Array.isArray(f[keys[0]!])) return false;
    return (f[keys[0]!] as unknown[]).every(isFilter);
  }
  const allowed = new Set(['dimension', 'member', 'operator', 'values']);
  if (Object.keys(f).some((k) => !allowed.has(k))) return false;
  if ('dimension' in f === 'member' in f) return false;
  const member = f['member'] ?? f['dimension'];
  if (typeof member !== 'string' || !ID.test(member)) return false;
  if (typeof f['operator'] !== 'string' || !OPERATORS.has(f['operator'])) return false;
  const values = f['values'];
  if (values === undefined) return true;
  return Array.isArray(values) && values.every((x) => x === null || ['string', 'number', 'boolean'].includes(typeof x));
}

function timeDimensions(v: unknown): void {
  if (v === undefined) return;
  if (!Array.isArray(v)) throw formatError('"timeDimensions" must be an array');
  v.forEach((td, i) => {
    const at = `timeDimensions[${i}]`;
    if (!isObj(td)) throw formatError(`"${at}" must be of type object`);
    if (td['dimension'] === undefined) throw formatError(`"${at}.dimension" is required`);
    if (typeof td['dimension'] !== 'string') throw formatError(`"${at}.dimension" must be a string`);
    pattern(`${at}.dimension`, td['dimension'], ID);
    if (td['granularity'] !== undefined && typeof td['granularity'] !== 'string')
      throw formatError(`"${at}.granularity" must be a string`);
    const range = td['dateRange'];
    if (range !== undefined && typeof range !== 'string') {
      const ok = Array.isArray(range) && range.length >= 1 && range.length <= 2;
      if (!ok || !range.every((d) => typeof d === 'string'))
        throw formatError(`"${at}.dateRange" does not match any of the allowed types`);
    }
    if (td['compareDateRange'] !== undefined && !Array.isArray(td['compareDateRange']))
      throw formatError(`"${at}.compareDateRange" must be an array`);
    const extra = Object.keys(td).find(
      (k) => !['dimension', 'granularity', 'dateRange', 'compareDateRange'].includes(k),
    );
    if (extra !== undefined) throw formatError(`"${at}.${extra}" is not allowed`);
  });
}

function order(v: unknown): void {
  if (v === undefined) return;
  const dirs = (d: unknown) => d === 'asc' || d === 'desc';
  if (Array.isArray(v)) {
    v.forEach((e, i) => {
      if (!Array.isArray(e)) throw formatError(`"order[${i}]" must be an array`);
      if (e.length < 2) throw formatError(`"order[${i}]" must contain at least 2 items`);
      pattern(`order[${i}][0]`, e[0], ORDER_KEY);
      if (!dirs(e[1])) throw formatError(`"order[${i}][1]" must be one of [asc, desc]`);
    });
    return;
  }
  if (!isObj(v)) throw formatError('"order" does not match any of the allowed types');
  for (const [k, d] of Object.entries(v)) {
    if (!ORDER_KEY.test(k)) throw formatError(`"order.${k}" is not allowed`);
    if (!dirs(d)) throw formatError(`"order.${k}" must be one of [asc, desc]`);
  }
}

function integer(query: Obj, key: string): void {
  const v = query[key];
  if (v === undefined) return;
  if (typeof v !== 'number' || Number.isNaN(v)) throw formatError(`"${key}" must be a number`);
  if (!Number.isInteger(v)) throw formatError(`"${key}" must be an integer`);
  if (v < 0) throw formatError(`"${key}" must be greater than or equal to 0`);
}

function boolean(query: Obj, key: string): void {
  if (query[key] !== undefined && typeof query[key] !== 'boolean') throw formatError(`"${key}" must be a boolean`);
}

function timezone(v: unknown): void {
  if (v === undefined) return;
  if (typeof v !== 'string') throw formatError('"timezone" must be a string');
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: v });
  } catch {
    throw formatError(`"timezone" must be a valid IANA time zone, got ${q(v)}`);
  }
}

/** Keys Cube takes that the emulator only lets through. */
const PASSED = ['cacheMode', 'cache', 'responseFormat', 'subqueryJoins', 'joinHints', 'maskedMembers'];
const KEYS = new Set([
  'measures',
  'dimensions',
  'filters',
  'timeDimensions',
  'order',
  'segments',
  'timezone',
  'limit',
  'offset',
  'total',
  'ungrouped',
  ...PASSED,
]);

/** Cube's query schema, in its key order; throws the first violation. */
export function checkQueryFormat(query: unknown): asserts query is Obj {
  if (!isObj(query)) throw formatError('"value" must be of type object');
  // Cube looks for member expressions in these lists before its schema runs: anything there but a list
  // (or null) crashes it, a 500.
  for (const key of ['measures', 'dimensions', 'segments']) {
    const v = query[key];
    if (v !== undefined && v !== null && !Array.isArray(v))
      throw new CubeError('TypeError: array?.some is not a function', false, 500);
  }
  memberList(query, 'measures', ID);
  memberList(query, 'dimensions', DIMENSION_WITH_TIME);
  const filters = query['filters'];
  if (filters !== undefined) {
    if (!Array.isArray(filters)) throw formatError('"filters" must be an array');
    filters.forEach((f, i) => {
      if (!isFilter(f)) throw formatError(`"filters[${i}]" does not match any of the allowed types`);
    });
  }
  timeDimensions(query['timeDimensions']);
  order(query['order']);
  memberList(query, 'segments', ID);
  timezone(query['timezone']);
  integer(query, 'limit');
  integer(query, 'offset');
  boolean(query, 'total');
  boolean(query, 'ungrouped');
  const extra = Object.keys(query).find((k) => !KEYS.has(k));
  if (extra !== undefined) throw formatError(`"${extra}" is not allowed`);
  const tds = (query['timeDimensions'] ?? []) as Obj[];
  const selects =
    ((query['measures'] as unknown[] | undefined)?.length ?? 0) > 0 ||
    ((query['dimensions'] as unknown[] | undefined)?.length ?? 0) > 0 ||
    tds.some((td) => td['granularity']);
  if (!selects)
    throw new CubeError(
      'Query should contain either measures, dimensions or timeDimensions with granularities in order to be valid',
      false,
    );
  checkFilterValues((filters ?? []) as Obj[]);
}

/** Cube's filter normalisation: every operator but set, notSet and measureFilter takes values. */
function checkFilterValues(filters: Obj[]): void {
  for (const f of filters) {
    if (Array.isArray(f['or']) || Array.isArray(f['and'])) {
      checkFilterValues((f['or'] ?? f['and']) as Obj[]);
      continue;
    }
    const values = f['values'] as unknown[] | undefined;
    if ((!values || values.length === 0) && !['set', 'notSet', 'measureFilter'].includes(f['operator'] as string))
      throw new CubeError(`Values required for filter: ${JSON.stringify(f)}`, false);
  }
}
