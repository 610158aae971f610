/**
 * V8 flags of the process (leaf module), set by the CLI only (`load` and `capacity`: cli/): a
 * library import changes no process-wide state, and a script that wants the same calls
 * `tuneHeapForPendingRequests()` itself (docs/architecture.md, Design rules).
 *
 * V8's heap sizing for an open-model run, which holds every request pending until its webhook
 * arrives: up to 180 s x the arrival rate (~100,000 at 1,000/s at once). V8's defaults suit a
 * short-lived heap, not that one:
 * - the old generation is let grow to up to ~2-4x what survived the last full collection before
 *   the next one, so the garbage promoted between two collections (responses in flight, parsed
 *   bodies) costs as much as the pending requests themselves; `--heap-growing-percent` caps the
 *   growth (here +10 %: a full collection per ~10 % of new old-generation bytes);
 * - the young generation grows to its maximum (2 x 32 MB on 64-bit) when most young objects
 *   survive a scavenge, which pending requests do by nature; `--semi-space-growth-factor=1`
 *   keeps it at its starting size.
 * Both are read by V8 at each collection, so setting them once the process runs takes effect
 * (unlike `--max-semi-space-size`, fixed when the heap is set up). Measured with
 * bench/rss.js: RSS per pending request roughly halves for a few percent more CPU. Measured
 * again once a pending request held ~0.6 KB (bench/pending.js --variant, 60,000 pending): +25 %
 * instead of +10 % cost 5-6 % more peak RSS for no CPU saving out of the runs' noise (-18 % in
 * one run, +6 % in the other), so +10 % stays.
 * Measured and left out: `--no-maglev` (no mid-tier compiler). Given to node at start it cut peak
 * RSS by 6-10 % for the same CPU per answer (docs/scale.md); set here, once the process runs, it
 * cost 6-26 % more CPU per answer than the same build without it (3 rounds, bench/pending.js),
 * so it is the user's to give (`NODE_OPTIONS=--no-maglev`).
 * A flag the user passed to node (NODE_OPTIONS or the command line) is left as given.
 */
import { setFlagsFromString } from 'node:v8';

/** Old-generation growth between two full collections, % (V8's own choice is 10-300 %). */
const HEAP_GROWING_PERCENT = 10;

/** Each flag, and the V8 setting it sets (a user's flag of that setting, in either spelling, wins). */
const FLAGS: readonly { flag: string; setting: string }[] = [
  { flag: `--heap-growing-percent=${HEAP_GROWING_PERCENT}`, setting: 'heap-growing-percent' },
  { flag: '--semi-space-growth-factor=1', setting: 'semi-space-growth-factor' },
];
let tightened = false;

/** node's own flags: the command line's and NODE_OPTIONS'. */
const nodeFlags = (): string[] => [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)];

/**
 * The flags `tuneHeapForPendingRequests` sets given node's own flags `given`: each of FLAGS but
 * those whose setting the user gave (`--name`, `--no-name`, `--name=value`, dashes or
 * underscores).
 */
export function heapFlagsToSet(given: readonly string[] = nodeFlags()): string[] {
  return FLAGS.filter(({ setting }) => {
    const spellings = [setting, setting.replaceAll('-', '_')].flatMap((s) => [`--${s}`, `--no-${s}`]);
    return !given.some((g) => spellings.some((s) => g === s || g.startsWith(`${s}=`)));
  }).map(({ flag }) => flag);
}

/** Applies the flags above once per process (idempotent). `given`: node's own flags, to leave what the user set. */
export function tuneHeapForPendingRequests(given: readonly string[] = nodeFlags()): void {
  if (tightened) return;
  tightened = true;
  for (const flag of heapFlagsToSet(given)) setFlagsFromString(flag);
}
