/**
 * `stream` (`--deliveries`): the Redis Stream the deliveries were read from and the clock skew
 * measured. Answer latency runs from the shard's submit to the receiver's arrival stamp mapped
 * through Redis TIME, so the skew between machines does not enter it (docs/receiver.md).
 * Merged: every shard's skew side by side (skews do not add).
 */
import { z } from 'zod';
import { formatMs } from '../../units.js';
import type { ClockSkew } from '../../receiver/index.js';
import type { ReceiverStats } from '../run-types.js';
import { defineSection } from '../section.js';
import { span, type SectionView } from '../view.js';
import { obj, type Assert, type Same } from './common.js';

const streamSchema = obj({
  stream: z.string(),
  redis: z.string().describe('the Redis URL without its password'),
  shards: z.array(
    obj({
      shardId: z.string(),
      redisMinusLocalUs: z.number().describe("Redis TIME minus the shard's wall clock, us; within +- rttUs / 2"),
      rttUs: z.number(),
      measuredAt: z.string().describe('ISO 8601'),
      receivers: z.array(
        obj({
          receiverId: z.string(),
          redisMinusReceiverUs: z
            .number()
            .describe("Redis TIME minus the receiver's wall clock, us, as the receiver measured it"),
          receiverMinusLocalUs: z.number().describe("the receiver's clock minus the shard's, us"),
          uncertaintyUs: z.number().describe('the skew is known within +- this, us'),
        }),
      ),
    }),
  ),
}).describe('--deliveries: the Redis Stream read, and the clock skew measured');
// Written from the receiver's measurement as it is (jobs/pipeline/pipeline.ts): the schema must describe all of it.
const _skew: Assert<Same<Omit<z.output<typeof streamSchema>['shards'][number], 'shardId'>, ClockSkew>> = true;
void _skew;
export type StreamSection = z.output<typeof streamSchema>;

type Doc = { stream?: StreamSection; receiver: ReceiverStats };

/** The stream read, the deliveries other shards counted (`foreign`), and the largest skew measured between a receiver and a shard. */
function streamView(st: StreamSection, receiver: ReceiverStats): SectionView {
  const skews = st.shards.flatMap((sh) => sh.receivers.map((r) => ({ shard: sh.shardId, ...r })));
  const worst = skews.reduce<(typeof skews)[number] | undefined>(
    (w, r) => (w === undefined || Math.abs(r.receiverMinusLocalUs) > Math.abs(w.receiverMinusLocalUs) ? r : w),
    undefined,
  );
  return {
    id: 'stream',
    title: 'Stream',
    summary: `${st.stream} at ${st.redis} · foreign ${receiver.foreign} (other shards' deliveries) · ${st.shards.length} shard${st.shards.length === 1 ? '' : 's'}`,
    notes: [
      span(
        worst === undefined
          ? 'clock skew: no receiver seen in the stream'
          : `clock skew: receivers vs shards at most ${formatMs(Math.abs(worst.receiverMinusLocalUs) / 1000)} (${worst.receiverId} vs ${worst.shard}, +- ${formatMs(worst.uncertaintyUs / 1000)}); answer latency is mapped through Redis TIME and does not include it`,
        'muted',
      ),
    ],
  };
}

export const streamSection = defineSection({
  name: 'stream',
  fields: { stream: streamSchema.optional() },
  merge: (docs: readonly Doc[]) => {
    const list = docs.flatMap((d) => (d.stream ? [d.stream] : []));
    return list[0]
      ? { stream: { stream: list[0].stream, redis: list[0].redis, shards: list.flatMap((s) => s.shards) } }
      : {};
  },
  views: (d: Doc) => (d.stream ? [streamView(d.stream, d.receiver)] : []),
});
