/**
 * The `progress` reporter: live progress of a run from `onResult`. On a TTY (and `CI` unset) a
 * cli-progress bar on stderr (`done/planned`, passed, failed, ETA); otherwise plain lines,
 * at most one per `intervalMs` (default 5000 ms) plus a last one, so CI logs stay short.
 * It only listens (autocannon's progress display does the same): it changes no figure.
 */
import cliProgress from 'cli-progress';
import type { Writable } from 'node:stream';
import type { Reporter, ReporterOptions, RunStartInfo } from './reporter.js';
import type { RequestRecord } from './run-types.js';

export interface ProgressOptions {
  stream: Writable & { isTTY?: boolean };
  /** Draw a bar (TTY, not CI) or write plain lines. */
  live: boolean;
  /** Plain mode: least time between two lines, ms (default 5000). */
  intervalMs?: number;
  /** Clock of the plain-line throttle, ms (default Date.now). */
  now?: () => number;
}

/** True when a live bar fits: `stream` is a TTY and `CI` is not set (or is "false"/"0"). */
export function wantsLiveProgress(stream: { isTTY?: boolean }, env: Record<string, string | undefined>): boolean {
  const ci = env.CI;
  return Boolean(stream.isTTY) && (ci === undefined || ci === '' || ci === 'false' || ci === '0');
}

/** A progress reporter over an explicit stream and mode (see {@link createProgressReporter}). */
export function createProgressReporterWith(opts: ProgressOptions): Reporter {
  const now = opts.now ?? Date.now;
  const interval = opts.intervalMs ?? 5000;
  let planned: number | undefined;
  let done = 0;
  let passed = 0;
  let lastLine = -Infinity;
  let bar: cliProgress.SingleBar | undefined;
  const text = (): string => `progress: ${done}${planned !== undefined ? `/${planned}` : ''} done, ${passed} passed, ${done - passed} failed`;
  return {
    name: 'progress',
    onRunStart(info: RunStartInfo) {
      planned = info.planned;
      if (!opts.live) return;
      bar = new cliProgress.SingleBar(
        {
          stream: opts.stream as NodeJS.WriteStream,
          format: '{bar} {value}/{total} | {passed} passed, {failed} failed | ETA {eta_formatted}',
          hideCursor: true,
          clearOnComplete: true,
          // cli-progress checks stream.isTTY itself; we decided already (tests use a fake TTY).
          noTTYOutput: true,
          notTTYSchedule: 200,
        },
        cliProgress.Presets.shades_classic,
      );
      bar.start(planned ?? 0, 0, { passed: 0, failed: 0 });
    },
    onResult(record: RequestRecord) {
      done += 1;
      if (record.passed) passed += 1;
      if (bar) {
        if (planned === undefined || done > planned) bar.setTotal(done);
        bar.update(done, { passed, failed: done - passed });
        return;
      }
      const t = now();
      if (t - lastLine >= interval) {
        lastLine = t;
        opts.stream.write(`${text()}\n`);
      }
    },
    onRunEnd() {
      if (bar) {
        bar.stop();
        bar = undefined;
        return;
      }
      opts.stream.write(`${text()}\n`);
    },
  };
}

/** The `progress` reporter of the name map: stderr, live when {@link wantsLiveProgress}. */
export function createProgressReporter(opts: ReporterOptions): Reporter {
  const stream = opts.stderr ?? process.stderr;
  return createProgressReporterWith({ stream, live: wantsLiveProgress(stream, opts.env ?? process.env) });
}
