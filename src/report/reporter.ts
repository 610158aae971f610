/**
 * Reporters: objects with optional, awaitable hooks (`onRunStart`, `onResult`, `onRunEnd`),
 * built by name from {@link reporters} (a name-to-factory map, like vitest's).
 * A reporter renders the ReportDocument it is given; it computes nothing of its own.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import { UsageError } from '../errors.js';
import { didYouMean } from '../metrics/index.js';
import { renderConsoleSummary } from './console.js';
import { writeHtmlReport } from './html.js';
import { writeJsonReport } from './json.js';
import { writeJUnitReport } from './junit.js';
import { writeMarkdownSummary } from './markdown.js';
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
  /** Environment (default process.env), e.g. for GITHUB_STEP_SUMMARY. */
  env?: Record<string, string | undefined>;
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

/** Writes `<outDir>/report.json` at the end of the run. */
export function createJsonReporter(opts: ReporterOptions): Reporter {
  const files: string[] = [];
  return {
    name: 'json',
    files,
    async onRunEnd(report) {
      files.push(await writeJsonReport(opts.outDir, report));
    },
  };
}

/** Writes `<outDir>/junit.xml` at the end of the run. */
export function createJUnitReporter(opts: ReporterOptions): Reporter {
  const files: string[] = [];
  return {
    name: 'junit',
    files,
    async onRunEnd(report) {
      files.push(await writeJUnitReport(opts.outDir, report));
    },
  };
}

/** Writes `<outDir>/summary.md` (and appends it to $GITHUB_STEP_SUMMARY when set). */
export function createMarkdownReporter(opts: ReporterOptions): Reporter {
  const files: string[] = [];
  return {
    name: 'markdown',
    files,
    async onRunEnd(report) {
      files.push(...(await writeMarkdownSummary(opts.outDir, report, opts.env ? { env: opts.env } : {})));
    },
  };
}

/** Streams each record to `<outDir>/results.ndjson` as it ends (the file is started afresh each run). */
export function createNdjsonReporter(opts: ReporterOptions): Reporter {
  const path = join(opts.outDir, NDJSON_RESULTS_FILE);
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

/** Writes `<outDir>/report.html` (self-contained) at the end of the run. */
export function createHtmlReporter(opts: ReporterOptions): Reporter {
  const files: string[] = [];
  return {
    name: 'html',
    files,
    async onRunEnd(report) {
      files.push(await writeHtmlReport(opts.outDir, report));
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
};

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
