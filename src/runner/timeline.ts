/**
 * Latency and throughput over time (per-second throughput, in flight, ack/answer p50 and p99,
 * and the share of answers right over time: a degradation during a run is invisible in its totals). One set of
 * per-interval HDR histograms is live at a time: at each interval's end it is summarised (and
 * encoded, so shards can be merged exactly, as Artillery merges per-period histograms), then reset.
 * Memory stays flat whatever the run's length.
 *
 * `MeasuredLatency` is the engine's latency sink: every value goes to the run's histograms and
 * to the current interval's.
 */
import * as hdr from 'hdr-histogram-js';
import { zeroOutcomes, type Outcome } from '../outcomes.js';
import {
  burstShares,
  LATENCY_METRICS,
  LatencyRecorder,
  msToClampedUs,
  newLatencyHistogram,
  passShare,
  perLatencyMetric,
  zeroBurstCounts,
  type BurstShares,
  type LatencyMetric,
  type PassShare,
} from '../metrics/index.js';
import { countBurst } from './burst-tally.js';
import type { LatencySink } from './context.js';
import type { BurstRecord } from './types.js';

/** One metric over one interval, ms; `histogram`: HDR compressed base64 of us values. */
interface IntervalLatency {
  count: number;
  p50: number;
  p99: number;
  max: number;
  histogram: string;
}

/** One interval of the timeline. Times in s since the start of the measured run. */
export interface TimelinePoint {
  /** End of the interval, s. */
  t: number;
  /** Length of the interval, s (the last one may be shorter). */
  durationS: number;
  /** Measured requests started in the interval. */
  started: number;
  /** Measured requests that ended in the interval. */
  ended: number;
  /** Requests in flight at the interval's end, and at most during it. */
  inFlight: number;
  maxInFlight: number;
  /** Ended requests by outcome (outcomes with a count only). */
  outcomes: Partial<Record<Outcome, number>>;
  /** Intended arrival rate at the interval's end, req/s (open model). */
  targetRate?: number;
  ack?: IntervalLatency;
  answer?: IntervalLatency;
  sync?: IntervalLatency;
  reply?: IntervalLatency;
  ackServer?: IntervalLatency;
  /**
   * Requests that ended in the interval whose outcome passed, of those with a verdict, with the
   * share's Wilson 95% interval: answers right over time. Absent when none ended with a verdict.
   */
  answers?: PassShare;
  /** Conversations (steps scenarios with `say` turns, think time included) open at the interval's end, and at most during it; absent in a run without any. */
  openConversations?: number;
  maxOpenConversations?: number;
  /**
   * Bursts judged in requests that ended in the interval, and the shares answered out of order,
   * with a stale last answer and with a cart that regressed (docs/bursts.md); absent when none.
   */
  bursts?: BurstShares;
}

export interface Timeline {
  intervalMs: number;
  points: TimelinePoint[];
}

/** The run's latency sink: the whole run's recorder plus the current interval's histograms. */
export class MeasuredLatency implements LatencySink {
  readonly recorder = new LatencyRecorder();
  readonly interval: Record<LatencyMetric, hdr.Histogram> = perLatencyMetric(() => newLatencyHistogram());

  /** Conversations open now, and at most since the last interval's end (undefined until the first). */
  openConversations: number | undefined;
  maxOpenConversations = 0;

  recordMs(metric: LatencyMetric, ms: number): void {
    this.recorder.recordMs(metric, ms);
    const us = msToClampedUs(ms);
    if (us !== undefined) this.interval[metric].recordValue(us);
  }

  recordTurnMs(turn: number, metric: LatencyMetric, ms: number): void {
    this.recorder.recordTurnMs(turn, metric, ms);
  }

  conversation(delta: 1 | -1): void {
    const open = (this.openConversations ?? 0) + delta;
    this.openConversations = open;
    if (open > this.maxOpenConversations) this.maxOpenConversations = open;
  }
}

/** A latency sink that keeps nothing (warm-up requests). */
export const DISCARD_LATENCY: LatencySink = { recordMs: () => undefined };

const round3 = (n: number): number => Math.round(n * 1000) / 1000;
/** us -> ms with 3 decimals, as summarizeHistogram reads a histogram. */
const usToMs = (us: number): number => Math.round(us) / 1000;

/** Builds the timeline interval by interval; `close(now)` ends the last (partial) interval. */
export class TimelineBuilder {
  readonly intervalMs: number;
  readonly points: TimelinePoint[] = [];
  started = 0;
  ended = 0;
  maxInFlight = 0;
  readonly #outcomes = zeroOutcomes();
  #passed = 0;
  #failed = 0;
  #bursts = zeroBurstCounts();
  readonly #latency: MeasuredLatency;
  readonly #t0: number;
  #last: number;

  constructor(latency: MeasuredLatency, t0: number, intervalMs = 1000) {
    this.#latency = latency;
    this.#t0 = t0;
    this.#last = t0;
    this.intervalMs = intervalMs;
  }

  onStart(inFlight: number): void {
    this.started += 1;
    if (inFlight > this.maxInFlight) this.maxInFlight = inFlight;
  }

  /**
   * A request ended; `verdict` its tally verdict (tally.ts verdictOf): passed and failed count in
   * the interval's answers; `bursts`: its bursts, counted in the interval's shares.
   */
  onEnd(
    outcome: Outcome,
    verdict?: 'passed' | 'failed' | 'judge-error' | 'none',
    bursts?: readonly BurstRecord[],
  ): void {
    this.ended += 1;
    this.#outcomes[outcome] += 1;
    if (verdict === 'passed') this.#passed += 1;
    else if (verdict === 'failed') this.#failed += 1;
    if (bursts) for (const b of bursts) countBurst(this.#bursts, b);
  }

  /** Closes the interval ending at `now` (clock ms). */
  tick(now: number, inFlight: number, targetRate?: number): TimelinePoint {
    const point: TimelinePoint = {
      t: round3((now - this.#t0) / 1000),
      durationS: round3((now - this.#last) / 1000),
      started: this.started,
      ended: this.ended,
      inFlight,
      maxInFlight: Math.max(this.maxInFlight, inFlight),
      outcomes: Object.fromEntries(Object.entries(this.#outcomes).filter(([, n]) => n > 0)),
      ...(targetRate !== undefined && { targetRate: round3(targetRate) }),
      ...(this.#passed + this.#failed > 0 && { answers: passShare(this.#passed, this.#passed + this.#failed) }),
    };
    const bursts = burstShares(this.#bursts);
    if (bursts) point.bursts = bursts;
    const open = this.#latency.openConversations;
    if (open !== undefined) {
      point.openConversations = open;
      point.maxOpenConversations = this.#latency.maxOpenConversations;
      this.#latency.maxOpenConversations = open;
    }
    for (const m of LATENCY_METRICS) {
      const h = this.#latency.interval[m];
      if (h.totalCount === 0) continue;
      // The three figures a point shows, not summarizeHistogram's seven: the same values, without
      // the mean (a walk over every bucket: ~0.6 ms of the ~0.65 ms per metric per interval).
      point[m] = {
        count: h.totalCount,
        p50: usToMs(h.getValueAtPercentile(50)),
        p99: usToMs(h.getValueAtPercentile(99)),
        max: usToMs(h.getValueAtPercentile(100)),
        histogram: hdr.encodeIntoCompressedBase64(h),
      };
      h.reset();
    }
    this.points.push(point);
    this.#last = now;
    this.started = 0;
    this.ended = 0;
    this.maxInFlight = inFlight;
    this.#passed = 0;
    this.#failed = 0;
    this.#bursts = zeroBurstCounts();
    for (const o of Object.keys(this.#outcomes) as Outcome[]) this.#outcomes[o] = 0;
    return point;
  }

  /** The last interval (when anything happened in it) and the whole timeline. */
  close(now: number, inFlight: number): Timeline {
    const pending =
      this.started + this.ended > 0 || LATENCY_METRICS.some((m) => this.#latency.interval[m].totalCount > 0);
    if (pending || this.points.length === 0) this.tick(now, inFlight);
    return { intervalMs: this.intervalMs, points: this.points };
  }
}
