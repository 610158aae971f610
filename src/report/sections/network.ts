/**
 * `network`: a remote target's network round trip (jobs/pipeline/network.ts measures it), the fastest
 * of `samples` TCP connects, ms. `ackServer` = ack - rttMs; the acknowledgement limit is judged on it.
 */
import { z } from 'zod';
import { formatMs } from '../../units.js';
import { defineSection } from '../section.js';
import { ms, obj } from './common.js';

const networkSchema = obj({
  rttMs: ms.describe('network round trip: the fastest TCP connect to the target, milliseconds'),
  samples: z.number().int().positive().describe('TCP connects measured'),
  method: z.literal('tcp-connect'),
}).describe('remote targets only: the round trip ackServer (ack minus it) is judged on');
export type NetworkSection = z.output<typeof networkSchema>;

export const networkSection = defineSection({
  name: 'network',
  fields: { network: networkSchema.optional() },
  // Shards of one load measure one target: the first shard's round trip stands for all.
  merge: (docs) => (docs[0]?.network ? { network: docs[0].network } : {}),
  views: (d) => {
    const n = d.network;
    if (!n) return [];
    return [
      {
        id: 'network',
        title: 'Network round trip',
        summary: `${formatMs(n.rttMs)} (fastest of ${n.samples} TCP connects): ackServer = ack minus it, the server's share the 100 ms limit is about`,
      },
    ];
  },
});
