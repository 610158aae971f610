/**
 * Stage 2b of loading: scenario tables. A scenario with `each:` (rows.ts) becomes one scenario
 * per row before the file is validated, so that a row is an ordinary scenario from then on
 * (`--grep`, tags, `--weight`, `load`'s mix, the reports all see rows). Each copy is the
 * scenario's map with the row's cells as `{{ vars.<column> }}`:
 * - in its name, tags, humanMessage, chatHistory, expect, latency and simulate, rendered with the
 *   scenario's `vars:` and the row (a cell wins over a `vars:` value of the same name): a string
 *   that is one whole template inside `expect`, or the whole `chatHistory`, takes the cell's type
 *   (templates.ts: `chatHistory: "{{ vars.history }}"` with a list cell is that list), elsewhere
 *   the text;
 * - in `steps`, only the row's cells are rendered here (a `vars:` value may be replaced by a
 *   capture at run time, so steps keep those templates for the runner);
 * - its `vars:` is the scenario's `vars:` with the row's scalar cells on top (what a code
 *   assertion's context sees; a list or map cell is only for a whole-value template);
 * - its name: a name without a template gets the row's key appended, `name [key]`: the first
 *   column's value when it tells every row apart, else `row N`.
 * The copies keep the paths of the scenario they come from, so a problem the schema or the rules
 * find in a copy is reported at the scenario's line, or, when the value there was filled in by a
 * template from the row's cells, at the row (its file and line: a CSV record's first line). Problems
 * of the table itself are reported at the row too: a row without a column the templates use, two
 * rows with one name.
 * A template naming a column no row has (nor `vars:`) is reported where it is written, with a
 * did-you-mean among the columns.
 */
import type { FileIssue } from '../errors.js';
import { didYouMean } from '../suggest.js';
import { readTable, type TableRow } from './rows.js';
import { renderTemplate, renderText, templateNames, type Vars } from './templates.js';
import type { DataPath, YamlSource } from './yaml-source.js';

type Raw = Record<string, unknown>;
const isRecord = (v: unknown): v is Raw => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Every `{{ vars.x }}` in strings under `value`: name -> the first data path it is written at. */
function templatesIn(value: unknown, at: DataPath, out: Map<string, DataPath>, depth = 0): void {
  if (typeof value === 'string') {
    for (const name of templateNames(value).names) if (!out.has(name)) out.set(name, at);
    return;
  }
  if (depth > 32 || value === null || typeof value !== 'object') return;
  for (const [k, v] of Object.entries(value))
    templatesIn(v, [...at, Array.isArray(value) ? Number(k) : k], out, depth + 1);
}

/** Renders every string under `value`; inside an `expect` map a whole template keeps its value's type. */
function render(value: unknown, vars: Vars, typed: boolean, depth = 0): unknown {
  if (typeof value === 'string') return typed ? renderTemplate(value, vars) : renderText(value, vars);
  if (depth > 64 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => render(v, vars, typed, depth + 1));
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [k, render(v, vars, typed || k === 'expect', depth + 1)]),
  );
}

/** The key a name without a template gets per row: the first column when it tells the rows apart. */
function rowKeys(rows: readonly TableRow[], columns: readonly string[]): string[] {
  const first = columns[0];
  const keys = rows.map((r) => (first === undefined ? '' : String(r.cells[first] ?? '').trim()));
  const unique = keys.every((k) => k !== '' && k.length <= 60) && new Set(keys).size === keys.length;
  return unique ? keys : rows.map((r) => `row ${r.number}`);
}

/** Checks the templates of scenario `i` against its table; the row copies, problems to `out`. */
function expandOne(sc: Raw, i: number, source: YamlSource, out: FileIssue[]): { copy: Raw; row: TableRow }[] {
  const base: DataPath = ['scenarios', i];
  const table = readTable(sc.each, [...base, 'each'], source, out);
  if (!table || table.rows.length === 0) return [];
  const vars = isRecord(sc.vars) ? sc.vars : {};
  const used = new Map<string, DataPath>();
  for (const [k, v] of Object.entries(sc)) if (k !== 'each' && k !== 'vars') templatesIn(v, [...base, k], used);
  const captured = new Set<string>();
  for (const [j, step] of (Array.isArray(sc.steps) ? sc.steps : []).entries()) {
    if (!isRecord(step) || !isRecord(step.capture)) continue;
    for (const name of Object.keys(step.capture)) {
      captured.add(name);
      if (table.columns.includes(name))
        out.push({
          location: source.locate([...base, 'steps', j, 'capture', name], 'key'),
          message: `capture "${name}" has the name of a column of the table (each:): rename one of them`,
        });
    }
  }
  for (const [name, at] of used) {
    const known = table.columns.includes(name) || Object.hasOwn(vars, name) || captured.has(name);
    // Steps' own variables are checked by step-rules.ts on every copy.
    if (known || at[2] === 'steps') continue;
    const guess = didYouMean(name, [...table.columns, ...Object.keys(vars)]);
    out.push({
      location: source.locate(at),
      message: guess
        ? `no column "${name}" in the table (each:) — did you mean "${guess}"?`
        : `no column "${name}" in the table (each:) and no such variable in "vars:"; columns: ${table.columns.join(', ')}`,
    });
  }
  const needed = [...used.keys()].filter((n) => table.columns.includes(n) && !Object.hasOwn(vars, n));
  for (const row of table.rows) {
    const missing = needed.filter((n) => !Object.hasOwn(row.cells, n));
    if (missing.length > 0)
      out.push({
        location: row.location,
        message: `row ${row.number} has no ${missing.map((n) => `"${n}"`).join(', ')}, which the scenario uses as {{ vars.${missing[0]} }}`,
      });
  }
  const name = typeof sc.name === 'string' ? sc.name : '';
  const keys = templateNames(name).names.length === 0 ? rowKeys(table.rows, table.columns) : undefined;
  const seen = new Map<string, TableRow>();
  return table.rows.map((row, r) => {
    const merged: Vars = { ...vars, ...row.cells };
    const copy: Raw = {};
    for (const [k, v] of Object.entries(sc)) {
      if (k === 'each' || k === 'vars') continue;
      if (k === 'steps') copy.steps = render(v, row.cells, false);
      else if (k === 'name') copy.name = keys ? `${name} [${keys[r]}]` : renderText(name, merged);
      else if (k === 'chatHistory' && typeof v === 'string') copy[k] = renderTemplate(v, merged);
      else copy[k] = render(v, merged, k === 'expect');
    }
    const scalars = Object.entries(row.cells).filter(([, c]) => c === null || typeof c !== 'object');
    copy.vars = { ...vars, ...Object.fromEntries(scalars) };
    const rendered = String(copy.name);
    const first = seen.get(rendered);
    if (first)
      out.push({
        location: row.location,
        message: `row ${row.number} is named "${rendered}" like row ${first.number}: put a column that tells the rows apart in the name`,
      });
    else seen.set(rendered, row);
    return { copy, row };
  });
}

/**
 * The document with every `each:` scenario replaced by its rows (see module docs), as a
 * `YamlSource` whose `locate` maps a copy's paths to the scenario it comes from and whose
 * `rowOrigin` names its row. The source itself when no scenario has `each:`.
 */
export function expandTables(source: YamlSource): { source: YamlSource; issues: FileIssue[] } {
  const data = source.data;
  const issues: FileIssue[] = [];
  if (!isRecord(data) || !Array.isArray(data.scenarios) || !data.scenarios.some((s) => isRecord(s) && 'each' in s))
    return { source, issues };
  const scenarios: unknown[] = [];
  const origin: number[] = [];
  const rows: ({ scenario: number; row: TableRow } | undefined)[] = [];
  for (const [i, sc] of data.scenarios.entries()) {
    if (!isRecord(sc) || !('each' in sc)) {
      scenarios.push(sc);
      origin.push(i);
      rows.push(undefined);
      continue;
    }
    for (const { copy, row } of expandOne(sc, i, source, issues)) {
      scenarios.push(copy);
      origin.push(i);
      rows.push({ scenario: i, row });
    }
  }
  const mapPath = (path: DataPath): DataPath =>
    path[0] === 'scenarios' && typeof path[1] === 'number' && path[1] < origin.length
      ? ['scenarios', origin[path[1]]!, ...path.slice(2)]
      : path;
  /** The row a copy's value at `path` was filled from (a template there names a cell), else undefined. */
  const filledFrom = (path: DataPath): TableRow | undefined => {
    const from = path[0] === 'scenarios' && typeof path[1] === 'number' ? rows[path[1]] : undefined;
    if (!from) return undefined;
    let written: unknown = data;
    for (const key of mapPath(path)) {
      if (written === null || typeof written !== 'object') return undefined;
      written = (written as Record<string | number, unknown>)[key];
    }
    if (typeof written !== 'string') return undefined;
    return templateNames(written).names.some((n) => Object.hasOwn(from.row.cells, n)) ? from.row : undefined;
  };
  return {
    source: {
      ...source,
      data: { ...data, scenarios },
      locate: (path, want) => source.locate(mapPath(path), want),
      // A problem of a value a row's cell filled in is the row's (its file:line), not the template's.
      locateProblem: (path, want) => filledFrom(path)?.location ?? source.locate(mapPath(path), want),
      rowOrigin: (index) => rows[index],
    },
    issues,
  };
}
