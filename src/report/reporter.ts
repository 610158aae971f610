/**
 * Reporters: objects with optional, awaitable hooks (`onRunStart`, `onResult`, `onRunEnd`),
 * built by name from {@link reporters} (a name-to-factory map, like vitest's).
 * A reporter renders the ReportDocument it is given; it computes nothing of its own.
 */
import { basename, dirname, join } from 'node:path';
import { UsageError } from '../errors.js';
import { didYouMean } from '../suggest.js';
import { renderConsoleSummary } from './console.js';
import { HTML_REPORT_FILE, writeHtmlReport } from './html.js';
import { JSON_REPORT_FILE, writeJsonReport } from './json.js';
import { JUNIT_REPORT_FILE, writeJUnitReport } from './junit.js';
import { MARKDOWN_REPORT_FILE, writeMarkdownSummary } from './markdown.js';
import { createProgressReporter } from './progress.js';
import { NDJSON_RESULTS_FILE, NdjsonWriter } from './ndjson.js';
import type { ReportDocument } from './sections/index.js';
import type { Reporter, ReporterFactory, ReporterOptions } from './reporter-types.js';

export type { Reporter, ReporterFactory, ReporterOptions } from './reporter-types.js';

/** The directory and file name a file reporter writes to: `outputFile[name]`, else `<outDir>/<fallback>`. */
function outputPath(opts: ReporterOptions, name: string, fallback: string): { dir: string; file: string } {
  const custom = opts.outputFile?.[name];
  return custom ? { dir: dirname(custom), file: basename(custom) } : { dir: opts.outDir, file: fallback };
}

/** Prints the console summary at the end of the run. */
function createConsoleReporter(opts: ReporterOptions): Reporter {
  return {
    name: 'console',
    onRunEnd(report) {
      (opts.stdout ?? process.stdout).write(
        renderConsoleSummary(report, { color: opts.color ?? false, verbose: opts.verbose ?? false }),
      );
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
const createJsonReporter = (opts: ReporterOptions): Reporter =>
  fileReporter('json', JSON_REPORT_FILE, opts, (dir, file, report) => writeJsonReport(dir, report, file));

/** Writes `<outDir>/junit.xml` at the end of the run. */
const createJUnitReporter = (opts: ReporterOptions): Reporter =>
  fileReporter('junit', JUNIT_REPORT_FILE, opts, (dir, file, report) =>
    writeJUnitReport(dir, report, { fileName: file }),
  );

/** Writes `<outDir>/summary.md` (and appends it to $GITHUB_STEP_SUMMARY when set). */
const createMarkdownReporter = (opts: ReporterOptions): Reporter =>
  fileReporter('markdown', MARKDOWN_REPORT_FILE, opts, (dir, file, report) =>
    writeMarkdownSummary(dir, report, { fileName: file, ...(opts.env && { env: opts.env }) }),
  );

/** Writes `<outDir>/report.html` (self-contained) at the end of the run. */
const createHtmlReporter = (opts: ReporterOptions): Reporter =>
  fileReporter('html', HTML_REPORT_FILE, opts, (dir, file, report) => writeHtmlReport(dir, report, file));

/**
 * Streams each record to `<outDir>/results.ndjson` as it ends (the file is started afresh each
 * job; ndjson.ts: one serialisation, redaction, answer policy, backpressure).
 */
function createNdjsonReporter(opts: ReporterOptions): Reporter {
  const { dir, file } = outputPath(opts, 'ndjson', NDJSON_RESULTS_FILE);
  const path = join(dir, file);
  const files: string[] = [];
  let writer: NdjsonWriter | undefined;
  return {
    name: 'ndjson',
    files,
    async onRunStart() {
      writer = await NdjsonWriter.open(path, {
        ...(opts.redact && { redact: opts.redact }),
        answers: opts.ndjsonAnswers ?? 'all',
      });
    },
    onResult(record, warmup) {
      writer?.writeRecord(record, warmup ?? false);
    },
    // Every interval the pending lines reach the file: a crash loses at most one interval.
    onProgress() {
      writer?.flush();
    },
    drained() {
      return writer?.drained();
    },
    async onAbort() {
      await writer?.close().catch(() => undefined);
    },
    async onRunEnd() {
      if (!writer) writer = await NdjsonWriter.open(path, { answers: 'none' });
      await writer.close();
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
    if (eq <= 0 || path === '')
      throw new UsageError(`--output-file: "${v}" must be <reporter>=<path>, e.g. junit=out/junit.xml`);
    if (!Object.hasOwn(reporters, name)) {
      try {
        createReporter(name, { outDir: '.' }); // throws with a did-you-mean
      } catch (err) {
        throw new UsageError(`--output-file: ${(err as Error).message}`);
      }
    }
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
