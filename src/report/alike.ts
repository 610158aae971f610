/**
 * Whether two runs are alike enough for `compare` to call a difference a regression: the job
 * must match (else compare refuses without `--force`); the target, duration, achieved rate, mode
 * mix and droidcheck version that differ are said before the verdict (two targets are compared:
 * staging against production is what a team asks). Apart from the comparison's rules
 * (sections/comparison.ts), which judge the figures themselves.
 */
import { formatMs, formatRate } from '../units.js';
import { pct as share0 } from './view.js';

/** What `compare` reads to tell whether two runs are alike. */
export interface RunIdentity {
  kind: string;
  toolVersion: string;
  durationMs: number;
  settings: Record<string, unknown>;
  scenarios: readonly { mode: string }[];
  tallies?: readonly { mode: string; requests: number }[];
  load?: { achievedRate: number };
}

/** One way two runs differ; `refuse`: comparing them says nothing (another job). */
export interface Unlike {
  what: string;
  base: string;
  current: string;
  refuse: boolean;
}

/** Durations and rates within this share of each other are alike. */
const ALIKE_SHARE = 0.2;
/** Mode mixes within this many percentage points are alike. */
const ALIKE_MIX_PTS = 5;

const targetOf = (r: RunIdentity): string => {
  const t = r.settings.target as { kind?: string; baseUrl?: string; droidId?: unknown } | undefined;
  return t?.kind === 'remote' ? `${t.baseUrl ?? '?'} (droid ${String(t.droidId ?? '?')})` : (t?.kind ?? 'unknown');
};
/** Share of sync requests, 0..1; undefined when the report has none. */
function syncShare(r: RunIdentity): number | undefined {
  const counts =
    r.tallies && r.tallies.length > 0
      ? r.tallies.map((t) => [t.mode, t.requests] as const)
      : r.scenarios.map((s) => [s.mode, 1] as const);
  const total = counts.reduce((n, [, c]) => n + c, 0);
  return total === 0 ? undefined : counts.reduce((n, [m, c]) => n + (m === 'sync' ? c : 0), 0) / total;
}
const apart = (a: number, b: number): boolean => Math.abs(a - b) > ALIKE_SHARE * Math.max(a, b);
const mixText = (s: number): string => `${share0(s)} sync / ${share0(1 - s)} async`;

/**
 * How `current` differs from `base` beyond the figures compared: the job (kind; refused: a load
 * against a run is no before and after), then the target, the measured duration and achieved
 * rate (more than 20% apart), the mode mix (more than 5 points apart) and the droidcheck version
 * (said first; the comparison stands).
 */
export function unlikeRuns(base: RunIdentity, current: RunIdentity): Unlike[] {
  const out: Unlike[] = [];
  if (base.kind !== current.kind) out.push({ what: 'kind', base: base.kind, current: current.kind, refuse: true });
  // Two services (staging and production, the last release and the next) are the common case:
  // compared, with the difference said first.
  if (targetOf(base) !== targetOf(current))
    out.push({ what: 'target', base: targetOf(base), current: targetOf(current), refuse: false });
  if (apart(base.durationMs, current.durationMs))
    out.push({
      what: 'duration',
      base: formatMs(base.durationMs),
      current: formatMs(current.durationMs),
      refuse: false,
    });
  if (base.load && current.load && apart(base.load.achievedRate, current.load.achievedRate))
    out.push({
      what: 'achieved rate',
      base: formatRate(base.load.achievedRate),
      current: formatRate(current.load.achievedRate),
      refuse: false,
    });
  const [bm, cm] = [syncShare(base), syncShare(current)];
  if (bm !== undefined && cm !== undefined && Math.abs(bm - cm) * 100 > ALIKE_MIX_PTS)
    out.push({ what: 'mode mix', base: mixText(bm), current: mixText(cm), refuse: false });
  if (base.toolVersion !== current.toolVersion)
    out.push({ what: 'droidcheck version', base: base.toolVersion, current: current.toolVersion, refuse: false });
  return out;
}

/** `not alike: target: http://a (droid 1) in the baseline, emulator now`. */
export const unlikeText = (u: Unlike): string => `not alike: ${u.what}: ${u.base} in the baseline, ${u.current} now`;
