// The members a report's SQL names, where they can be found reliably: the
// argument of `MEASURE(cube.member)`, and `cube.member` where `cube` is a
// table the query reads FROM or JOINs by its own name (in Cube's SQL API a
// cube is a table and its members are columns); and the tables it reads
// (each must be a cube or a view). Strings, quoted identifiers
// and comments are skipped. What looks like a member but cannot be told for
// sure (a qualifier that is an alias, a CTE or a subquery; a longer chain;
// a quoted name) is returned as not checked, never guessed.

export interface SqlUse {
  /** `cube.member`; for a table, the cube's (or view's) name. */
  member: string;
  role: 'sql-measure' | 'sql-column' | 'sql-table';
  /** Offset of the name in the SQL text. */
  offset: number;
  where: string;
}

export interface SqlUnchecked {
  text: string;
  why: string;
  offset: number;
}

interface Token {
  kind: 'name' | 'punct' | 'quoted';
  /** Dotted names are one token: `orders.count`, `a.b.c`. */
  text: string;
  offset: number;
}

/** Words after which a name is not a table's alias. */
const KEYWORDS = new Set(
  (
    'select from where group by order having limit offset join inner left right full outer cross on using as ' +
    'union all except intersect with and or not in is null like between case when then else end distinct ' +
    'lateral natural window qualify fetch asc desc'
  ).split(' '),
);

/** The tokens of a SQL text; strings, comments and whitespace dropped. */
function tokenize(sql: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  const n = sql.length;
  while (i < n) {
    const ch = sql[i]!;
    if (/\s/.test(ch)) i++;
    else if (ch === '-' && sql[i + 1] === '-') while (i < n && sql[i] !== '\n') i++;
    else if (ch === '/' && sql[i + 1] === '*') {
      const end = sql.indexOf('*/', i + 2);
      i = end === -1 ? n : end + 2;
    } else if (ch === "'") {
      i++;
      while (i < n) {
        if (sql[i] === "'" && sql[i + 1] === "'") i += 2;
        else if (sql[i] === "'") break;
        else i++;
      }
      i++;
    } else if (ch === '"' || ch === '`') {
      const start = i;
      const end = sql.indexOf(ch, i + 1);
      i = end === -1 ? n : end + 1;
      out.push({ kind: 'quoted', text: sql.slice(start, i), offset: start });
    } else if (/[A-Za-z_]/.test(ch)) {
      const m = /^[A-Za-z_][\w$]*(?:\.[A-Za-z_][\w$]*)*/.exec(sql.slice(i, i + 512))!;
      out.push({ kind: 'name', text: m[0], offset: i });
      i += m[0].length;
    } else {
      out.push({ kind: 'punct', text: ch, offset: i });
      i++;
    }
  }
  return out;
}

const lower = (t: Token | undefined) => (t?.kind === 'name' ? t.text.toLowerCase() : undefined);

/**
 * What the query's FROM and JOIN clauses name: tables by their own name (qualifiers of columns), every other
 * qualifier in use, and each table read (aliased or not, not a CTE), where it is written.
 */
function scopes(tokens: readonly Token[]): { tables: Set<string>; others: Set<string>; reads: Token[] } {
  const tables = new Set<string>();
  const others = new Set<string>();
  const ctes = new Set<string>();
  const reads: Token[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = lower(tokens[i]);
    // `WITH x AS (` and `, x AS (`: a CTE's name.
    if (tokens[i]?.kind === 'name' && lower(tokens[i + 1]) === 'as' && tokens[i + 2]?.text === '(') {
      others.add(tokens[i]!.text);
      ctes.add(tokens[i]!.text);
    }
    if (t !== 'from' && t !== 'join') continue;
    let j = i + 1;
    for (;;) {
      const table = tokens[j];
      if (table?.text === '(') {
        // A subquery: its alias after the closing parenthesis.
        let depth = 0;
        for (; j < tokens.length; j++) {
          if (tokens[j]!.text === '(') depth++;
          else if (tokens[j]!.text === ')' && --depth === 0) break;
        }
      } else if (table?.kind === 'name' && !KEYWORDS.has(table.text.toLowerCase())) {
        if (table.text.includes('.')) others.add(table.text.split('.').pop()!);
        else if (tokens[j + 1]?.text === '(') {
          // A table function (`FROM generate_series(…)`): its arguments are skipped, its alias is no cube.
          let depth = 0;
          for (j++; j < tokens.length; j++) {
            if (tokens[j]!.text === '(') depth++;
            else if (tokens[j]!.text === ')' && --depth === 0) break;
          }
        } else {
          tables.add(table.text);
          reads.push(table);
        }
      } else break;
      j++;
      if (lower(tokens[j]) === 'as') j++;
      const alias = tokens[j];
      if (alias?.kind === 'name' && !KEYWORDS.has(alias.text.toLowerCase())) {
        others.add(alias.text);
        if (table.kind === 'name') tables.delete(table.text);
        j++;
      }
      if (t === 'from' && tokens[j]?.text === ',') j++;
      else break;
    }
  }
  for (const o of others) tables.delete(o);
  return { tables, others, reads: reads.filter((r) => !ctes.has(r.text)) };
}

export function sqlMembers(sql: string): { uses: SqlUse[]; unchecked: SqlUnchecked[] } {
  const tokens = tokenize(sql);
  const { tables, others, reads } = scopes(tokens);
  // Each table read: in Cube's SQL API a cube or a view of the model (a name it lacks is refused).
  const uses: SqlUse[] = reads.map((t) => ({
    member: t.text,
    role: 'sql-table',
    offset: t.offset,
    where: `sqlQuery table ${t.text}`,
  }));
  const unchecked: SqlUnchecked[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    const prev = lower(tokens[i - 1]);
    const inMeasure = lower(tokens[i - 2]) === 'measure' && tokens[i - 1]?.text === '(';
    if (t.kind === 'quoted') {
      if (inMeasure) unchecked.push({ text: t.text, why: 'a quoted name in MEASURE()', offset: t.offset });
      continue;
    }
    if (t.kind !== 'name' || !t.text.includes('.')) continue;
    // A function of a schema (`schema.fn(`), or a table after FROM/JOIN: not a column.
    if (tokens[i + 1]?.text === '(' || prev === 'from' || prev === 'join') continue;
    const parts = t.text.split('.');
    if (inMeasure && others.has(parts[0]!)) {
      const why = `MEASURE() through \`${parts[0]}\`, an alias, a CTE or a subquery`;
      unchecked.push({ text: t.text, why, offset: t.offset });
      continue;
    }
    if (inMeasure) {
      if (parts.length === 2)
        uses.push({ member: t.text, role: 'sql-measure', offset: t.offset, where: `sqlQuery MEASURE(${t.text})` });
      else unchecked.push({ text: t.text, why: 'MEASURE() of a name that is not cube.member', offset: t.offset });
      continue;
    }
    const qualifier = parts[0]!;
    if (parts.length === 2 && tables.has(qualifier)) {
      uses.push({ member: t.text, role: 'sql-column', offset: t.offset, where: `sqlQuery column ${t.text}` });
    } else if (others.has(qualifier)) {
      unchecked.push({
        text: t.text,
        why: `\`${qualifier}\` is an alias, a CTE or a subquery, not a cube`,
        offset: t.offset,
      });
    } else {
      unchecked.push({
        text: t.text,
        why: `\`${qualifier}\` is not a table the query reads by its own name`,
        offset: t.offset,
      });
    }
  }
  return { uses, unchecked };
}
