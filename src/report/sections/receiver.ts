/** `receiver`: the webhook receiver's counts (receiver/types.ts ReceiverStats); shards merge by adding. */
import type { z } from 'zod';
import type { ReceiverStats } from '../run-types.js';
import { defineSection } from '../section.js';
import { span, type SectionView } from '../view.js';
import { count, obj, type Assert, type Same } from './common.js';

const receiverSchema = obj({
  received: count,
  matched: count,
  duplicates: count,
  late: count,
  orphans: count,
  foreign: count.describe("stream mode: another shard's deliveries"),
  badSecret: count,
  malformed: count,
  published: count.describe('publish mode: deliveries written to the Redis Stream'),
  unavailable: count.describe('publish mode: deliveries answered 503 (Redis failed)'),
});
const _receiver: Assert<Same<z.output<typeof receiverSchema>, ReceiverStats>> = true;
void _receiver;
const KEYS = Object.keys(receiverSchema.shape) as (keyof ReceiverStats)[];

type Doc = { receiver: ReceiverStats };

/**
 * Counts that say something went wrong with the deliveries: a duplicate, late or orphan webhook,
 * a bad secret, a malformed body, a Redis write that failed. Without any, every delivery was
 * matched to its request, which the outcomes already say.
 */
const NOTEWORTHY: readonly (keyof ReceiverStats)[] = [
  'duplicates',
  'late',
  'orphans',
  'badSecret',
  'malformed',
  'unavailable',
];
const noteworthy = (r: ReceiverStats): boolean => NOTEWORTHY.some((k) => r[k] > 0);

/** One line: `received 26 · matched 26 · duplicates 0 · late 0 · ...`, the bad counts in warn. */
function receiverView(r: ReceiverStats): SectionView[] {
  const n = (k: keyof ReceiverStats, label: string, bad = false) =>
    bad && r[k] > 0 ? span(`${label} ${r[k]}`, 'warn') : `${label} ${r[k]}`;
  const parts = [
    n('received', 'received'),
    n('matched', 'matched'),
    n('duplicates', 'duplicates'),
    n('late', 'late', true),
    n('orphans', 'orphans', true),
    n('badSecret', 'bad secret', true),
    n('malformed', 'malformed', true),
  ];
  if (r.published > 0 || r.unavailable > 0)
    parts.push(n('published', 'published'), n('unavailable', 'unavailable', true));
  return [{ id: 'receiver', title: 'Receiver', summary: parts.flatMap((p, i) => (i === 0 ? [p] : [' · ', p])) }];
}

export const receiverSection = defineSection({
  name: 'receiver',
  fields: { receiver: receiverSchema },
  compute: (input: { receiver: ReceiverStats }) => ({ receiver: { ...input.receiver } }),
  merge: (docs: readonly Doc[]) => ({
    receiver: Object.fromEntries(
      KEYS.map((k) => [k, docs.reduce((n, d) => n + d.receiver[k], 0)]),
    ) as unknown as ReceiverStats,
  }),
  views: (d: Doc) => receiverView(d.receiver),
  brief: (d: Doc) => (noteworthy(d.receiver) ? receiverView(d.receiver) : []),
});
