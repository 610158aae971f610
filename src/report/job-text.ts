/**
 * Plain-text sentences for the sections every reporter shows alike (console, summary.md,
 * report.html): the network round trip of a remote target and the stream of `--deliveries`.
 * Each reporter adds only its own markup around them.
 */
import { formatMs } from '../units.js';
import type { NetworkSection, ReportDocument } from './report-document.js';

/** `network round trip 2.1 ms (fastest of 5 TCP connects): ...` (jobs/network.ts measures it). */
export function networkText(n: NetworkSection): string {
  return `network round trip ${formatMs(n.rttMs)} (fastest of ${n.samples} TCP connects): ackServer = ack minus it, the server's share the 100 ms limit is about`;
}

/**
 * `--deliveries`: the stream read and the deliveries other shards counted (`foreign`), then the
 * largest clock skew measured between a receiver and a shard, with its uncertainty. Undefined
 * without a stream section.
 */
export function streamText(report: ReportDocument): { stream: string; skew: string } | undefined {
  const st = report.stream;
  if (!st) return undefined;
  const skews = st.shards.flatMap((sh) => sh.receivers.map((r) => ({ shard: sh.shardId, ...r })));
  const worst = skews.reduce<(typeof skews)[number] | undefined>((w, r) => (w === undefined || Math.abs(r.receiverMinusLocalUs) > Math.abs(w.receiverMinusLocalUs) ? r : w), undefined);
  return {
    stream: `${st.stream} at ${st.redis} · foreign ${report.receiver.foreign} (other shards' deliveries) · ${st.shards.length} shard${st.shards.length === 1 ? '' : 's'}`,
    skew:
      worst === undefined
        ? 'clock skew: no receiver seen in the stream'
        : `clock skew: receivers vs shards at most ${formatMs(Math.abs(worst.receiverMinusLocalUs) / 1000)} (${worst.receiverId} vs ${worst.shard}, +- ${formatMs(worst.uncertaintyUs / 1000)}); answer latency is mapped through Redis TIME and does not include it`,
  };
}
