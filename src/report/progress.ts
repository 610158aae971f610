/**
 * The `progress` reporter, the same for every job: live progress on stderr. It only listens
 * (autocannon's progress display does the same): it changes no figure.
 *
 * - On a terminal (and `CI` unset), a cli-progress bar when the job knows how many requests it
 *   plans (run): `done/planned`, passed, failed, and an ETA from the observed rate (`ETA --`
 *   until a request has ended). Lines the job prints meanwhile go through `log()`, which prints
 *   them above the bar; at the end the bar clears itself before anything else is printed.
 * - Otherwise (CI logs, or an unbounded load): one plain line every `intervalMs` (default 5 s)
 *   with the elapsed time, requests started per second, in flight, ended/planned, outcomes and
 *   ack p99 (with its count; `—` below the 100 samples a p99 needs, as in the summary), each
 *   with its unit. The first line comes once an interval has passed, so a job shorter than one
 *   prints none: the summary follows at once and says more. A job that knows what it planned
 *   (run) prints no last line either, as its summary gives the same counts; a load, whose
 *   planned count is open, ends with one (the only one with `intervalMs` 0). `verbose` prints
 *   every line: the first at the first tick, and the last one.
 */
import type cliProgress from 'cli-progress';
import { lazyRequire } from '../lazy-require.js';
import type { Writable } from 'node:stream';
import { UNSUPPORTED_CELL, minSamplesForStat } from '../metrics/index.js';
import { OUTCOMES } from '../outcomes.js';
import { formatMs, formatRate } from '../units.js';
import type { ProgressSnapshot } from '../runner/index.js';
import type { Reporter, ReporterOptions, RunStartInfo } from './reporter-types.js';
import type { RequestRecord } from './run-types.js';

/** cli-progress, loaded by the first live bar (the progress reporter is not on by default). */
const bars = lazyRequire<typeof cliProgress>('cli-progress');

export interface ProgressOptions {
  stream: Writable & { isTTY?: boolean };
  /** Draw a bar (TTY, not CI) or write plain lines. */
  live: boolean;
  /** Plain mode: least time between two lines, ms (default 5000; 0: only the last line). */
  intervalMs?: number;
  /** Clock of the throttle and the ETA, ms (default performance.now). */
  now?: () => number;
  /** Plain mode: a line at the first tick and a last one, whatever the job's length (`--verbose`). */
  verbose?: boolean;
}

/** The `log` of the live bar drawn on a stream, while it is drawn (see {@link writeAboveProgress}). */
const liveBars = new WeakMap<object, (line: string) => void>();

/**
 * Writes one line to `stream`: through the live progress bar drawn on it, if any (the bar is
 * cleared, the line printed, the bar redrawn below it, so the line never lands inside the bar),
 * else plainly (after a line break with `breakLine`, e.g. past a `^C` the terminal echoed). For lines that do not come from the job, e.g. the interrupt message
 * (cli/shared.ts `withInterrupts`).
 */
export function writeAboveProgress(
  stream: Writable & { isTTY?: boolean },
  line: string,
  opts: { breakLine?: boolean } = {},
): void {
  const log = liveBars.get(stream);
  if (log) log(line);
  else stream.write(`${opts.breakLine ? '\n' : ''}${line}\n`);
}

/** True when a live bar fits: `stream` is a TTY and `CI` is not set (or is "false"/"0"). */
export function wantsLiveProgress(stream: { isTTY?: boolean }, env: Record<string, string | undefined>): boolean {
  const ci = env.CI;
  return Boolean(stream.isTTY) && (ci === undefined || ci === '' || ci === 'false' || ci === '0');
}

/** `ETA 12 s` from the observed rate; `ETA --` before anything ended. */
export function etaText(done: number, planned: number, elapsedMs: number): string {
  if (done === 0 || elapsedMs <= 0) return 'ETA --';
  const left = Math.max(0, planned - done);
  return `ETA ${formatMs((left * elapsedMs) / done)}`;
}

/** One plain progress line from a snapshot (no trailing newline). */
export function progressLine(s: ProgressSnapshot): string {
  const outcomes = OUTCOMES.filter((o) => o === 'answered' || s.outcomes[o] > 0)
    .map((o) => `${o} ${s.outcomes[o]}`)
    .join(' ');
  const target = s.targetRate !== undefined ? ` (target ${formatRate(s.targetRate)})` : '';
  const ended = s.planned !== undefined ? `${s.ended}/${s.planned}` : String(s.ended);
  // As the summary's latency table: no p99 from fewer than 100 samples, a dash with the count.
  const ack =
    s.ack.count > 0
      ? ` | ack p99 ${s.ack.count >= minSamplesForStat('p99') ? formatMs(s.ack.p99Ms) : UNSUPPORTED_CELL} (${s.ack.count} samples)`
      : '';
  return `[${formatMs(s.elapsedMs).padStart(9)}] ${formatRate(s.rate)}${target} | in flight ${s.inFlight} | ended ${ended}${s.dropped > 0 ? ` | dropped ${s.dropped}` : ''} | ${outcomes}${ack}`;
}

/** The live bar's container on `stream`: passed, failed and the ETA beside the count. */
function newMultiBar(stream: ProgressOptions['stream']): cliProgress.MultiBar {
  const { MultiBar, Presets } = bars();
  return new MultiBar(
    {
      stream: stream as NodeJS.WriteStream,
      format: '{bar} {value}/{total} | {passed} passed, {failed} failed | {remaining}',
      hideCursor: false,
      clearOnComplete: true,
      stopOnComplete: false,
      // cli-progress checks stream.isTTY itself; we decided already (tests drive a real pty).
      noTTYOutput: true,
      notTTYSchedule: 200,
      // droidcheck handles SIGINT itself (cli/signals.ts) and stops the bar through onRunEnd.
      gracefulExit: false,
    },
    Presets.shades_classic,
  );
}

/** A progress reporter over an explicit stream and mode (see {@link createProgressReporter}). */
export function createProgressReporterWith(opts: ProgressOptions): Reporter & { log(line: string): void } {
  const now = opts.now ?? (() => performance.now());
  const interval = opts.intervalMs ?? 5000;
  let planned: number | undefined;
  let done = 0;
  let passed = 0;
  let failed = 0;
  let t0 = now();
  let lastLine = -Infinity;
  let printed = 0;
  let last: ProgressSnapshot | undefined;
  let multi: cliProgress.MultiBar | undefined;
  let bar: cliProgress.SingleBar | undefined;
  // Flushes lines logged since the last redraw, then clears the bar before anything else prints.
  const stopBar = (): void => {
    if (multi) liveBars.delete(opts.stream);
    multi?.update();
    multi?.stop();
    multi = undefined;
    bar = undefined;
  };
  const payload = (): Record<string, string | number> => ({
    passed,
    failed,
    remaining: etaText(done, planned ?? done, now() - t0),
  });
  return {
    name: 'progress',
    onRunStart(info: RunStartInfo) {
      planned = info.planned;
      t0 = now();
      if (!opts.verbose) lastLine = t0;
      if (!opts.live || planned === undefined) return;
      multi = newMultiBar(opts.stream);
      bar = multi.create(planned, 0, payload());
      const live = multi;
      liveBars.set(opts.stream, (line) => {
        live.log(`${line}\n`);
        // Print it now: the bar is redrawn below the line (the run may end before the next redraw).
        live.update();
      });
    },
    onResult(record: RequestRecord, warmup?: boolean) {
      if (warmup) return;
      done += 1;
      if (record.passed) passed += 1;
      else if (record.outcome !== 'not-sent' && record.outcome !== 'interrupted') failed += 1;
      bar?.update(done, payload());
    },
    onProgress(snapshot: ProgressSnapshot) {
      last = snapshot;
      if (bar) return;
      const t = now();
      if (interval > 0 && t - lastLine >= interval) {
        lastLine = t;
        printed += 1;
        opts.stream.write(`${progressLine(snapshot)}\n`);
      }
    },
    log(line: string) {
      if (multi) multi.log(`${line}\n`);
      else opts.stream.write(`${line}\n`);
    },
    onAbort() {
      stopBar();
    },
    onRunEnd() {
      if (multi) {
        stopBar();
        return;
      }
      // A run's summary follows with the same counts; a load's count is open (see the module docs).
      if (!opts.verbose && (planned !== undefined || (interval > 0 && printed === 0))) return;
      // At the end every request has an outcome (an interrupted one too): none is in flight.
      if (last) opts.stream.write(`${progressLine({ ...last, ended: done, passed, failed, inFlight: 0 })}\n`);
    },
  };
}

/** The `progress` reporter of the name map: stderr, live when {@link wantsLiveProgress}. */
export function createProgressReporter(opts: ReporterOptions): Reporter {
  const stream = opts.stderr ?? process.stderr;
  return createProgressReporterWith({
    stream,
    live: wantsLiveProgress(stream, opts.env ?? process.env),
    verbose: opts.verbose ?? false,
    ...(opts.progressIntervalMs !== undefined && { intervalMs: opts.progressIntervalMs }),
  });
}
