/**
 * The default in-flight cap of the open model, derived from the load asked: every arrival of the
 * peak rate may stay pending for the whole answer timeout (answers take up to 180 s by the
 * service's Limits), so the cap that drops nothing at that rate is rate × timeout; a margin
 * covers bursts. A fixed default dropped arrivals of launch-sized loads (1,000 async answers/s
 * with 120 s answers is 120,000 in flight).
 */

/** Margin over peak rate × timeout. */
const IN_FLIGHT_MARGIN = 1.2;
/** The smallest derived cap (small rates still get room for bursts). */
const MIN_IN_FLIGHT_CAP = 1_000;
/**
 * Heap one pending async request holds in the generator while its webhook is awaited, bytes
 * (its record, the engine's and the receiver's slots for it), rounded up to 100 B: measured after
 * full collections by test/runner/pending-memory.test.ts, which fails when the figure grows past
 * this plus its noise. Used to print what a cap implies, not to enforce it. V8 needs room over
 * the live heap between collections (docs/scale.md gives RSS per pending request).
 */
export const PENDING_REQUEST_BYTES = 700;

/** The cap for `peakRate` req/s with answers pending up to `timeoutMs` ms. */
export function defaultInFlightCap(peakRate: number, timeoutMs: number): number {
  return Math.max(MIN_IN_FLIGHT_CAP, Math.ceil(peakRate * (timeoutMs / 1000) * IN_FLIGHT_MARGIN));
}

/** `~101 MB`: the heap `cap` pending requests hold at PENDING_REQUEST_BYTES each. */
export function inFlightMemory(cap: number): string {
  const bytes = cap * PENDING_REQUEST_BYTES;
  return bytes >= 1e9 ? `~${(bytes / 1e9).toFixed(1)} GB` : `~${Math.max(1, Math.round(bytes / 1e6))} MB`;
}

/**
 * The heap a run holding `cap` pending requests needs over what is used now (`usedBytes`): the
 * pending requests at PENDING_REQUEST_BYTES each, with a quarter more for the garbage V8 lets the
 * old generation gather between two full collections.
 */
function heapNeeded(cap: number, usedBytes: number): number {
  return usedBytes + cap * PENDING_REQUEST_BYTES * 1.25;
}

/**
 * When `cap` pending requests would not fit in this Node's heap (`limitBytes`, V8's
 * heap_size_limit: ~4 GB by default on a machine with 16 GB or more, less in a container with
 * less memory), the sentence that says so and the `--max-old-space-size` (MB, a multiple of 256)
 * that fits them; undefined when they fit (within 90 % of the limit).
 */
export function heapAdvice(cap: number, usedBytes: number, limitBytes: number): string | undefined {
  const needed = heapNeeded(cap, usedBytes);
  if (needed <= limitBytes * 0.9) return undefined;
  const mb = Math.ceil((needed * 1.2) / 1e6 / 256) * 256;
  return `${cap} pending requests need ~${Math.round(needed / 1e6)} MB of heap, over this Node's limit of ${Math.round(limitBytes / 1e6)} MB: run with NODE_OPTIONS=--max-old-space-size=${mb} (the machine needs that much memory free) or lower --max-in-flight`;
}
