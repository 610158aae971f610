/**
 * Durations, rates and shares as users write them and as droidcheck prints them (leaf module).
 *
 * One rule for every command (a bare number is ambiguous): a duration needs its unit (`500ms`,
 * `30s`, `2.5m`, `1h`); only `0` may stand alone. Every printed number carries its unit (`12.3 ms`,
 * `2.41 s`, `150 req/s`, `12.5%`).
 */

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
const DURATION = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/;

/** Why a value is not a duration, for error messages. */
export function durationProblem(value: string | number): string | undefined {
  const text = String(value);
  const m = DURATION.exec(text);
  if (!m) return `"${text}" is not a duration; write e.g. 500ms, 30s, 2m`;
  if (m[2] === undefined && Number(m[1]) !== 0) return `"${text}" needs a unit: write ${m[1]}ms or ${m[1]}s`;
  return undefined;
}

/**
 * Parses a duration with its unit into ms ("250ms", "30s", "2.5m", "1h"; "0" alone).
 * Returns undefined when it is not one (see {@link durationProblem} for the reason).
 */
export function durationMs(value: string | number): number | undefined {
  if (durationProblem(value) !== undefined) return undefined;
  const m = DURATION.exec(String(value))!;
  return Number(m[1]) * (m[2] ? UNIT_MS[m[2]]! : 1);
}

/** Trims a number to at most `digits` decimals, without trailing zeros. */
function trim(n: number, digits: number): string {
  return String(Number(n.toFixed(digits)));
}

/**
 * A duration in ms, with its unit: under 1 s `12.3 ms` (3 significant digits, at most 3
 * decimals), under 10 s `2.41 s`, then seconds with one decimal (`61.4 s`, `120.1 s`,
 * `3599.6 s`): one unit from 1 s up, so durations read and compare at a glance (`2 min` would
 * hide 20 s either way).
 */
export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return `${ms} ms`;
  const abs = Math.abs(ms);
  // Below 999.5 ms: a figure that rounds to 1000 ms is said in seconds, as 1 s.
  if (abs < 999.5)
    return `${abs >= 100 ? trim(ms, 0) : abs >= 10 ? trim(ms, 1) : abs >= 1 ? trim(ms, 2) : trim(ms, 3)} ms`;
  return `${trim(ms / 1000, abs >= 10_000 ? 1 : 2)} s`;
}

/** A rate in requests per second: `150 req/s`, `12.5 req/s`. */
export function formatRate(perSecond: number): string {
  return `${trim(perSecond, perSecond >= 100 ? 0 : 1)} req/s`;
}

/** A count with thousands separators: `52,310`. */
export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

/** A share 0..1 as a percentage: `12.5%` (null: `-`). */
export function formatPercent(share: number | null, digits = 1): string {
  return share === null || !Number.isFinite(share) ? '-' : `${trim(share * 100, digits)}%`;
}
