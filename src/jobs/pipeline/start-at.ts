/**
 * `load --start-at <ISO time>` (docs/scale.md): every shard sleeps until the same wall-clock
 * instant, then starts its engine, so the shards' timelines line up interval by interval and the
 * merged report describes one load. The instant must be at most 1 s in the past (a shard that
 * started a little late still starts at once, and says by how much) and at most 24 h ahead (a
 * typo of the date would otherwise hold a pod for days). The sleep ends early on the stop signal
 * (SIGINT/SIGTERM): the job then sends nothing and writes its (empty) report, exit 130.
 * Wall clocks of the shards' machines must agree (NTP): their skew is the shards' start skew.
 */
import type { Clock } from '../../clock.js';
import { UsageError } from '../../errors.js';
import { formatMs } from '../../units.js';

/** How far in the past `--start-at` may be, ms. */
const START_AT_PAST_MS = 1_000;
/** How far ahead `--start-at` may be, ms (24 h). */
const START_AT_AHEAD_MS = 24 * 60 * 60 * 1_000;

/**
 * Checks `startAt` (ISO 8601, config/parse.ts parseInstant) against the wall clock `nowMs`;
 * returns the instant in ms since the epoch. Throws UsageError (exit 2) when it is more than 1 s
 * in the past or more than 24 h ahead.
 */
export function checkStartAt(startAt: string, nowMs: number): number {
  const at = Date.parse(startAt);
  if (at < nowMs - START_AT_PAST_MS) {
    throw new UsageError(
      `--start-at ${startAt} is ${formatMs(nowMs - at)} in the past; give every shard the same future instant, e.g. --start-at $(date -u -d '+30 seconds' +%FT%TZ)`,
    );
  }
  if (at > nowMs + START_AT_AHEAD_MS)
    throw new UsageError(`--start-at ${startAt} is more than 24 h ahead (${formatMs(at - nowMs)}); check the date`);
  return at;
}

/**
 * Sleeps until `atMs` on `clock`'s wall clock (ms since the epoch; re-checked after each
 * wake-up, so a timer that fires early does not start early). Resolves the lag: how late the
 * caller starts, ms (>= 0).
 */
export async function sleepUntil(atMs: number, clock: Clock, signal?: AbortSignal): Promise<number> {
  const now = (): number => clock.wallNow().getTime();
  for (let left = atMs - now(); left > 0 && !signal?.aborted; left = atMs - now())
    await clock.sleep(Math.min(left, 2 ** 31 - 1), signal);
  return Math.max(0, now() - atMs);
}
