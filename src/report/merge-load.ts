/**
 * Merging the load and stream sections of shards (`load --shard i/n`, docs/scale.md): one load
 * described by its parts. Shards started together (`--start-at`) send over the same window, so:
 * counts (sent, warm-up, dropped) are summed; the measured window is the longest shard's; rates
 * are the summed counts over that window (req/s); the send-delay histograms are added (HDR) and
 * summarised again; the generator verdict is bound when any shard's was (one generator-bound
 * shard makes the merged figures suspect); the start lag is the latest shard's. Stream sections: every
 * shard's clock skew, side by side (skews do not add). Pure.
 */
import { LatencyRecorder, summarizeHistogram } from '../metrics/index.js';
import * as hdr from 'hdr-histogram-js';
import type { LoadSection, ReportDocument, StreamSection } from './report-document.js';

const round3 = (n: number): number => Math.round(n * 1000) / 1000;

/** The merged load section; undefined when no input has one. `answered`: the merged answered outcome count. */
export function mergeLoadSections(inputs: readonly (LoadSection | undefined)[], answered: number): LoadSection | undefined {
  const list = inputs.filter((l): l is LoadSection => l !== undefined);
  const first = list[0];
  if (!first) return undefined;
  const sent = list.reduce((n, l) => n + l.sent, 0);
  const measuredMs = Math.max(...list.map((l) => l.measuredMs));
  const seconds = measuredMs / 1000;
  const merged: LoadSection = {
    model: first.model,
    sent,
    warmupSent: list.reduce((n, l) => n + l.warmupSent, 0),
    dropped: list.reduce((n, l) => n + l.dropped, 0),
    measuredMs: round3(measuredMs),
    achievedRate: seconds > 0 ? round3(sent / seconds) : 0,
    answeredRate: seconds > 0 ? round3(answered / seconds) : 0,
  };
  const delays = list.flatMap((l) => (l.sendDelay ? [l.sendDelay.histogram] : []));
  if (delays.length > 0) {
    const h = LatencyRecorder.decode(delays[0]!);
    for (const d of delays.slice(1)) h.add(LatencyRecorder.decode(d));
    const { min: _min, ...summary } = summarizeHistogram(h);
    merged.sendDelay = { ...summary, histogram: hdr.encodeIntoCompressedBase64(h) };
  }
  const verdicts = list.flatMap((l) => (l.generator ? [l.generator] : []));
  if (verdicts.length > 0) {
    const limitMs = verdicts[0]!.limitMs;
    const bound = verdicts.filter((v) => v.generatorBound);
    const worst = Math.max(...verdicts.map((v) => v.p99Ms));
    const p99Ms = merged.sendDelay?.p99 ?? worst;
    merged.generator = {
      generatorBound: bound.length > 0,
      p99Ms,
      limitMs,
      message:
        bound.length > 0
          ? `generator-bound on ${bound.length} of ${verdicts.length} shards (send delay p99 up to ${worst} ms > ${limitMs} ms): their latency figures, and so the merged ones, are suspect`
          : `send delay p99 <= ${limitMs} ms on every shard (${worst} ms at most): the generators kept up`,
    };
  }
  const shards = list.flatMap((l) => l.shards ?? []);
  if (shards.length > 0) merged.shards = shards;
  const starts = new Set(list.map((l) => l.startAt));
  if (starts.size === 1 && first.startAt !== undefined) merged.startAt = first.startAt;
  const lags = list.flatMap((l) => (l.startLagMs === undefined ? [] : [l.startLagMs]));
  if (lags.length > 0) merged.startLagMs = Math.max(...lags);
  return merged;
}

/** Every input's shards side by side; undefined when no input read a stream. */
export function mergeStreamSections(reports: readonly ReportDocument[]): StreamSection | undefined {
  const list = reports.flatMap((r) => (r.stream ? [r.stream] : []));
  const first = list[0];
  if (!first) return undefined;
  return { stream: first.stream, redis: first.redis, shards: list.flatMap((s) => s.shards) };
}
