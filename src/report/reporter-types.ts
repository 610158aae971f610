/**
 * The reporter contract (vitest's Reporter style: optional, awaitable hooks), apart from the
 * reporters themselves so a reporter module imports only types.
 */
import type { Writable } from 'node:stream';
import type { ProgressSnapshot } from '../runner/index.js';
import type { AnswerPolicy } from './ndjson.js';
import type { ReportDocument, ReportKind } from './sections/index.js';
import type { RequestRecord } from './run-types.js';

/** What a job tells reporters when it starts. */
export interface RunStartInfo {
  startedAt: string;
  /** Which job (its report's kind). */
  kind?: ReportKind;
  /** Requests planned (scenario x mode x repeat), when known (run). */
  planned?: number | undefined;
  /** Settings without token or secret. */
  settings: Record<string, unknown>;
}

/**
 * A reporter: optional hooks (vitest's Reporter style). `onResult` is called synchronously as
 * each record ends (outside the request's await chain: it must not block; `drained()` is how a
 * slow writer asks for backpressure); `onProgress` every interval; `onRunEnd` once, awaited, with
 * the redacted report.
 */
export interface Reporter {
  readonly name: string;
  /** Paths of the files this reporter wrote (filled by onRunEnd). */
  readonly files?: readonly string[];
  onRunStart?(info: RunStartInfo): void | Promise<void>;
  onResult?(record: RequestRecord, warmup?: boolean): void;
  onProgress?(snapshot: ProgressSnapshot): void;
  /** Resolves when the reporter can take more records; undefined when it can now. */
  drained?(): Promise<void> | undefined;
  onRunEnd?(report: ReportDocument): void | Promise<void>;
  /** The job ended without a report (a set-up failure, a bug): stop displays, close files. */
  onAbort?(): void | Promise<void>;
}

export interface ReporterOptions {
  /** Directory for file reports (e.g. `reports/`). */
  outDir: string;
  /** Where console output goes (default process.stdout). */
  stdout?: Writable;
  color?: boolean;
  /** `--verbose`: the console lists every request and every section in full; progress prints every line. */
  verbose?: boolean;
  /** Environment (default process.env), e.g. for GITHUB_STEP_SUMMARY and CI. */
  env?: Record<string, string | undefined>;
  /**
   * Per-reporter output paths, reporter name -> file (like vitest's `outputFile`), e.g.
   * `{ junit: 'out/junit.xml' }`; a reporter not named writes `<outDir>/<its default name>`.
   */
  outputFile?: Readonly<Record<string, string>>;
  /** Where the progress reporter draws (default process.stderr). */
  stderr?: Writable & { isTTY?: boolean };
  /** Applied to every line the NDJSON reporter writes (src/redact.ts). */
  redact?: (text: string) => string;
  /** What results.ndjson keeps of the answers: `all` (the default), `failed` (those of failed requests) or `none`. */
  ndjsonAnswers?: AnswerPolicy;
  /** Plain progress lines at most this often, ms (load `--progress`). */
  progressIntervalMs?: number;
}

export type ReporterFactory = (opts: ReporterOptions) => Reporter;
