/**
 * Reporters: objects with optional, awaitable hooks (`onRunStart`, `onResult`, `onRunEnd`),
 * built by name from {@link reporters} (a name-to-factory map, like vitest's).
 * A reporter renders the ReportDocument it is given; it computes nothing of its own.
 */
import { rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Writable } from 'node:stream';
import { UsageError } from '../errors.js';
import { didYouMean } from '../metrics/index.js';
import { renderConsoleSummary } from './console.js';
import { HTML_REPORT_FILE, writeHtmlReport } from './html.js';
import { JSON_REPORT_FILE, writeJsonReport } from './json.js';
import { JUNIT_REPORT_FILE, writeJUnitReport } from './junit.js';
import { MARKDOWN_REPORT_FILE, writeMarkdownSummary } from './markdown.js';
import { createProgressReporter } from './progress.js';
import { NDJSON_RESULTS_FILE, createNdjsonWriter, type NdjsonWriter } from './ndjson.js';
import type { ReportDocument } from './report-document.js';
import type { RequestRecord } from './run-types.js';

/** What a run tells reporters when it starts. */
export interface RunStartInfo {
  startedAt: string;
  /** Requests planned (scenario x mode x repeat), when known. */
  planned?: number;
  /** Settings without token or secret. */
  settings: Record<string, unknown>;
}

export interface Reporter {
  readonly name: string;
  /** Paths of the files this reporter wrote (filled by onRunEnd). */
  readonly files?: readonly string[];
  onRunStart?(info: RunStartInfo): void | Promise<void>;
  onResult?(record: RequestRecord): void | Promise<void>;
  onRunEnd?(report: ReportDocument): void | Promise<void>;
}

export interface ReporterOptions {
  /** Directory for file reports (e.g. `reports/`). */
  outDir: string;
  /** Where console output goes (default process.stdout). */
  stdout?: Writable;
  color?: boolean;
  /** Environment (default process.env), e.g. for GITHUB_STEP_SUMMARY and CI. */
  env?: Record<string, string | undefined>;
  /**
   * Per-reporter output paths, reporter name -> file (like vitest's `outputFile`), e.g.
   * `{ junit: 'out/junit.xml' }`; a reporter not named writes `<outDir>/<its default name>`.
   */
  outputFile?: Readonly<Record<string, string>>;
  /** Where the progress reporter draws (default process.stderr). */
  stderr?: Writable & { isTTY?: boolean };
}

/** The directory and file name a file reporter writes to: `outputFile[name]`, else `<outDir>/<fallback>`. */
export function outputPath(opts: ReporterOptions, name: string, fallback: string): { dir: string; file: string } {
  const custom = opts.outputFile?.[name];
  return custom ? { dir: dirname(custom), file: basename(custom) } : { dir: opts.outDir, file: fallback };
}

export type ReporterFactory = (opts: ReporterOptions) => Reporter;

/** Prints the console summary at the end of the run. */
export function createConsoleReporter(opts: ReporterOptions): Reporter {
  return {
    name: 'console',
    onRunEnd(report) {
      (opts.stdout ?? process.stdout).write(renderConsoleSummary(report, { color: opts.color ?? false }));
    },
  };
}

/**
 * A reporter that writes one document at the end of the run to `outputFile[name]`, else
 * `<outDir>/<fallback>`; `write` returns the paths it wrote.
 */
function fileReporter(
  name: string,
  fallback: string,
  opts: ReporterOptions,
  write: (dir: string, file: string, report: ReportDocument) => Promise<string | string[]>,
): Reporter {
  const files: string[] = [];
  return {
    name,
    files,
    async onRunEnd(report) {
      const { dir, file } = outputPath(opts, name, fallback);
      files.push(...[await write(dir, file, report)].flat());
    },
  };
}

/** Writes `<outDir>/report.json` at the end of the run. */
export const createJsonReporter = (opts: ReporterOptions): Reporter =>
  fileReporter('json', JSON_REPORT_FILE, opts, (dir, file, report) => writeJsonReport(dir, report, file));

/** Writes `<outDir>/junit.xml` at the end of the run. */
export const createJUnitReporter = (opts: ReporterOptions): Reporter =>
  fileReporter('junit', JUNIT_REPORT_FILE, opts, (dir, file, report) => writeJUnitReport(dir, report, { fileName: file }));

/** Writes `<outDir>/summary.md` (and appends it to $GITHUB_STEP_SUMMARY when set). */
export const createMarkdownReporter = (opts: ReporterOptions): Reporter =>
  fileReporter('markdown', MARKDOWN_REPORT_FILE, opts, (dir, file, report) =>
    writeMarkdownSummary(dir, report, { fileName: file, ...(opts.env && { env: opts.env }) }),
  );

/** Writes `<outDir>/report.html` (self-contained) at the end of the run. */
export const createHtmlReporter = (opts: ReporterOptions): Reporter =>
  fileReporter('html', HTML_REPORT_FILE, opts, (dir, file, report) => writeHtmlReport(dir, report, file));

/** Streams each record to `<outDir>/results.ndjson` as it ends (the file is started afresh each run). */
export function createNdjsonReporter(opts: ReporterOptions): Reporter {
  const { dir, file } = outputPath(opts, 'ndjson', NDJSON_RESULTS_FILE);
  const path = join(dir, file);
  const files: string[] = [];
  let writer: NdjsonWriter<RequestRecord> | undefined;
  const open = (): NdjsonWriter<RequestRecord> => (writer ??= createNdjsonWriter<RequestRecord>(path));
  return {
    name: 'ndjson',
    files,
    async onRunStart() {
      await rm(path, { force: true });
      open();
    },
    async onResult(record) {
      await open().write(record);
    },
    async onRunEnd() {
      await open().close();
      files.push(path);
    },
  };
}

/** Built-in reporters by name. */
export const reporters: Record<string, ReporterFactory> = {
  console: createConsoleReporter,
  json: createJsonReporter,
  html: createHtmlReporter,
  junit: createJUnitReporter,
  markdown: createMarkdownReporter,
  ndjson: createNdjsonReporter,
  progress: createProgressReporter,
};

/**
 * Parses `--output-file` values `name=path` (repeatable) into ReporterOptions.outputFile.
 * Throws UsageError (DROIDCHECK_ERR_USAGE) for a value without `=` or an unknown reporter name.
 */
export function parseOutputFiles(values: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const v of values) {
    const eq = v.indexOf('=');
    const name = v.slice(0, eq).trim();
    const path = v.slice(eq + 1).trim();
    if (eq <= 0 || path === '') throw new UsageError(`--output-file: "${v}" must be <reporter>=<path>, e.g. junit=out/junit.xml`);
    if (!Object.hasOwn(reporters, name)) createReporter(name, { outDir: '.' }); // throws with a did-you-mean
    out[name] = path;
  }
  return out;
}

/** Builds the named reporter. Throws UsageError (DROIDCHECK_ERR_USAGE) for an unknown name, with a did-you-mean. */
export function createReporter(name: string, opts: ReporterOptions): Reporter {
  const factory = Object.hasOwn(reporters, name) ? reporters[name] : undefined;
  if (!factory) {
    const known = Object.keys(reporters);
    const suggestion = didYouMean(name, known);
    throw new UsageError(
      `unknown reporter "${name}"${suggestion ? `; did you mean "${suggestion}"?` : ''} (known: ${known.join(', ')})`,
    );
  }
  return factory(opts);
}
