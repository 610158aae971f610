/**
 * The rows of a scenario table (`each:`, docs/tables-and-code.md): inline, as a YAML list of
 * maps, or from a file beside the suite, named relative to the suite file:
 * - `.csv`: a header row, then one row per record (RFC 4180 quoting, by csv-parse); every cell is
 *   text, as the file holds it (`"2"` stays the string "2");
 * - `.jsonl`: one JSON object per line (blank lines skipped);
 * - `.json`: a JSON list of objects;
 * - `.yaml` / `.yml`: a YAML list of maps.
 * A cell is a string, a number or true/false (what `vars:` takes); in a .jsonl, .json or .yaml
 * file (or inline) also a list or a map, which only a template that is a whole value uses
 * (`chatHistory: "{{ vars.history }}"`, each.ts). A column name is a variable name (letters,
 * digits and _, not starting with a digit). Every row carries where it is
 * written (file:line:col; CSV: the line its record starts on, col 1), so that a problem of one
 * row is reported there. At most MAX_TABLE_ROWS rows; a file is at most MAX_SUITE_BYTES.
 */
import { readFileSync, statSync } from 'node:fs';
import { dirname, extname, resolve } from 'node:path';
import { lazyRequire } from '../lazy-require.js';
import type { FileIssue, SourceLocation } from '../errors.js';
import { VAR_NAME_PATTERN } from './schema.js';
import { kindOf } from './matchers/values.js';
import { type DataPath, MAX_SUITE_BYTES, readYaml, type YamlSource } from './yaml-source.js';

/** csv-parse, loaded by the first CSV rows file (most suites have none). */
const csvParse = lazyRequire<typeof import('csv-parse/sync')>('csv-parse/sync');

/** More rows than this in one table is refused: each row is a scenario run in every mode. */
const MAX_TABLE_ROWS = 10_000;

/** A cell: a scalar, or (not from a CSV) a list or a map. */
type Cell = string | number | boolean | readonly unknown[] | Readonly<Record<string, unknown>>;

/** One row of a table: its cells by column, and where it is written. */
export interface TableRow {
  /** 1-based position in the table. */
  number: number;
  cells: Record<string, Cell>;
  location: SourceLocation;
}

/** A table read (`rows` empty when it could not be read: `issues` say why). */
export interface Table {
  rows: TableRow[];
  /** Every column some row has, in first-seen order. */
  columns: string[];
  /** The rows file, when `each:` names one (absolute path). */
  file?: string;
}

const EXTENSIONS = ['.csv', '.jsonl', '.json', '.yaml', '.yml'];
const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Checks one row's map and adds it to `table` (problems to `out`). */
function addRow(
  table: Table,
  value: unknown,
  location: SourceLocation,
  cellAt: (column: string) => SourceLocation,
  out: FileIssue[],
): void {
  const number = table.rows.length + 1;
  if (!isRecord(value)) {
    out.push({ location, message: `row ${number} must be a map of column: value, got ${kindOf(value)}` });
    return;
  }
  const cells: Record<string, Cell> = {};
  for (const [column, cell] of Object.entries(value)) {
    if (!VAR_NAME_PATTERN.test(column)) {
      out.push({
        location: cellAt(column),
        message: `row ${number}: bad column name "${column}": letters, digits and _, not starting with a digit (it is used as {{ vars.${column} }})`,
      });
      continue;
    }
    if (cell === null || cell === undefined) {
      out.push({
        location: cellAt(column),
        message: `row ${number}, column "${column}": a cell is a string, a number, true/false, a list or a map, got ${kindOf(cell)}`,
      });
      continue;
    }
    cells[column] = cell as Cell;
    if (!table.columns.includes(column)) table.columns.push(column);
  }
  table.rows.push({ number, cells, location });
}

function tooMany(table: Table, location: SourceLocation, out: FileIssue[]): boolean {
  if (table.rows.length < MAX_TABLE_ROWS) return false;
  out.push({ location, message: `more than ${MAX_TABLE_ROWS} rows: split the table into several scenarios or files` });
  return true;
}

/** A CSV text: the header names the columns; each record's first line is its location. */
function csvRows(text: string, file: string, table: Table, out: FileIssue[]): void {
  const at = (line: number, col = 1): SourceLocation => ({ file, line, col });
  type CsvRecord = { record: string[]; raw: string; info: { lines: number } };
  let records: CsvRecord[];
  try {
    // CRLF as LF: csv-parse counts a quoted CRLF as two lines, and the locations must be right.
    records = csvParse().parse(text.replace(/\r\n/g, '\n'), {
      bom: true,
      info: true,
      raw: true,
      skip_empty_lines: true,
    }) as unknown as CsvRecord[];
  } catch (err) {
    const line = (err as { lines?: unknown }).lines;
    const message =
      err instanceof Error ? err.message.replace(/ on line \d+$/, '').replace(/ at line \d+$/, '') : String(err);
    out.push({ location: at(typeof line === 'number' ? line : 1), message: `CSV: ${message}` });
    return;
  }
  const [header, ...body] = records;
  if (!header) {
    out.push({ location: at(1), message: 'the CSV file is empty: it needs a header row naming the columns' });
    return;
  }
  const startLine = (r: { raw: string; info: { lines: number } }): number =>
    r.info.lines - (r.raw.replace(/^\n+/, '').replace(/\n$/, '').match(/\n/g)?.length ?? 0);
  const names = header.record.map((n) => n.trim());
  names.forEach((n, i) => {
    if (names.indexOf(n) !== i)
      out.push({ location: at(startLine(header)), message: `CSV header: column "${n}" twice` });
  });
  for (const r of body) {
    if (tooMany(table, at(startLine(r)), out)) return;
    const line = startLine(r);
    addRow(table, Object.fromEntries(names.map((n, i) => [n, r.record[i] ?? ''])), at(line), () => at(line), out);
  }
}

/** JSON lines: one object per line. */
function jsonlRows(text: string, file: string, table: Table, out: FileIssue[]): void {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  for (const [i, line] of lines.entries()) {
    if (line.trim() === '') continue;
    const at: SourceLocation = { file, line: i + 1, col: 1 };
    if (tooMany(table, at, out)) return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (err) {
      out.push({ location: at, message: `JSON lines: ${err instanceof Error ? err.message : String(err)}` });
      continue;
    }
    addRow(table, value, at, () => at, out);
  }
}

/** A list of maps in a parsed YAML (or JSON) document at `base`. */
function listRows(source: YamlSource, list: unknown, base: DataPath, table: Table, out: FileIssue[]): void {
  if (!Array.isArray(list)) {
    out.push({ location: source.locate(base), message: `the rows must be a list of maps, got ${kindOf(list)}` });
    return;
  }
  if (list.length === 0) out.push({ location: source.locate(base), message: 'the table has no rows' });
  for (const [i, value] of list.entries()) {
    const at = [...base, i];
    if (tooMany(table, source.locate(at), out)) return;
    addRow(table, value, source.locate(at), (column) => source.locate([...at, column], 'key'), out);
  }
}

/** Reads a rows file (`ref` relative to the suite's folder); `at` is where `each:` names it. */
function fileRows(ref: string, suiteFile: string, at: SourceLocation, out: FileIssue[]): Table {
  const file = resolve(dirname(suiteFile), ref);
  const table: Table = { rows: [], columns: [], file };
  const ext = extname(file).toLowerCase();
  if (!EXTENSIONS.includes(ext)) {
    out.push({ location: at, message: `each: "${ref}": a rows file ends in ${EXTENSIONS.join(', ')}` });
    return table;
  }
  let text: string;
  try {
    const { size } = statSync(file);
    if (size > MAX_SUITE_BYTES) {
      out.push({ location: at, message: `each: ${file} is larger than ${MAX_SUITE_BYTES / 1024 / 1024} MiB` });
      return table;
    }
    text = readFileSync(file, 'utf8');
  } catch (err) {
    const why = (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message;
    out.push({ location: at, message: `each: cannot read ${file} (${ref} beside the suite): ${why}` });
    return table;
  }
  const before = out.length;
  if (ext === '.csv') csvRows(text, file, table, out);
  else if (ext === '.jsonl') jsonlRows(text, file, table, out);
  else {
    const { source, issues } = readYaml(text, file);
    out.push(...issues);
    if (source) listRows(source, source.data, [], table, out);
  }
  if (out.length === before && table.rows.length === 0)
    out.push({ location: { file, line: 1, col: 1 }, message: 'the table has no rows' });
  return table;
}

/**
 * The table of scenario `index`'s `each:` (a list, or a file name), problems to `out`.
 * @returns undefined when the scenario has no `each:`.
 */
export function readTable(each: unknown, at: DataPath, source: YamlSource, out: FileIssue[]): Table | undefined {
  if (each === undefined) return undefined;
  if (typeof each === 'string') return fileRows(each, source.file, source.locate(at), out);
  const table: Table = { rows: [], columns: [] };
  if (Array.isArray(each)) listRows(source, each, at, table, out);
  else
    out.push({
      location: source.locate(at),
      message: `each: a list of rows ({ column: value } maps) or a rows file (./rows.csv, .jsonl, .json, .yaml), got ${kindOf(each)}`,
    });
  return table;
}
