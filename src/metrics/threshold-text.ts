/**
 * One line per judged threshold, with units everywhere (a bare number is ambiguous): pure, for
 * every reporter (console, Markdown, JUnit, HTML).
 *
 *   ✓ ack.p99 < 100 ms (actual 41.2 ms, 812 samples)
 *   ✗ answer.max < 180 s (actual 3 min 23 s, 16 samples)
 *   – answer.p99 < 2 s: too few samples (16 < 100)
 *   – sync.p50 < 1 s: no samples
 *   – ack.p99 < 100 ms: not judged: generator-bound, send delay p99 45.2 ms > 10 ms (actual 1.59 s, 812 samples)
 */
import { formatMs, formatPercent } from '../units.js';
import { distrustText } from './thresholds-trust.js';
import type { ThresholdResult, ThresholdStatus, ThresholdUnit } from './thresholds.js';

/** ✓ passed, ✗ breached, – not judged (too few samples, no samples, figures not trusted). */
export const THRESHOLD_MARKS: Readonly<Record<ThresholdStatus, string>> = {
  passed: '✓',
  breached: '✗',
  'too-few-samples': '–',
  'no-samples': '–',
  'not-judged': '–',
};

const trim = (n: number, digits: number): string => String(Number(n.toFixed(digits)));

/** A limit as users write it, with its unit: `100 ms`, `180 s`, `1%`, `0`. */
export function formatLimit(limit: number, unit: ThresholdUnit): string {
  if (unit === 'ms') return limit >= 1000 && limit % 1000 === 0 ? `${limit / 1000} s` : `${trim(limit, 3)} ms`;
  if (unit === 'share') return formatPercent(limit, 3);
  return trim(limit, 3);
}

/**
 * A figure with its unit: ms through units.ts's formatMs (`41.2 ms`, `2.41 s`, `203.4 s`),
 * shares as percentages, counts bare. When `near` (the limit) would print the same, the figure is
 * given to the ms (`180.486 s`) so that a breach never reads as equal to its limit.
 */
function formatFigure(value: number, unit: ThresholdUnit, near?: number): string {
  if (unit === 'ms') {
    const text = formatMs(value);
    if (near === undefined || value === near || text !== formatMs(near)) return text;
    return Math.abs(value) >= 1000 ? `${trim(value / 1000, 3)} s` : `${trim(value, 3)} ms`;
  }
  if (unit === 'share') {
    const text = formatPercent(value, 1);
    return near !== undefined && value !== near && text === formatPercent(near, 1) ? formatPercent(value, 4) : text;
  }
  return trim(value, 3);
}

/** What the samples behind a coverage share are: products, intents, rules, conversations. */
const COVERAGE_NOUNS: Readonly<Record<string, string>> = {
  'coverage.products': 'product',
  'coverage.intents': 'declared intent',
  'coverage.rules': 'rule',
};

/** What the samples behind a threshold's figure are: `samples`, `requests` or `scenarios`. */
function sampleNoun(metric: string, count: number): string {
  const noun = metric.startsWith('outcome.')
    ? 'request'
    : metric.startsWith('scenario.')
      ? 'scenario'
      : metric.startsWith('load.')
        ? 'arrival'
        : metric.startsWith('coverage.funnel.')
          ? 'conversation'
          : (COVERAGE_NOUNS[metric] ?? 'sample');
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/** Names shown of what a coverage threshold found not covered; the rest are counted. */
const UNCOVERED_SHOWN = 10;

/** `; not covered: Denim jacket, Tote bag` (a funnel stage: `; no conversation of: Purchases`), or ''. */
function uncoveredText(r: Pick<ThresholdResult, 'metric' | 'uncovered'>): string {
  const list = r.uncovered ?? [];
  if (list.length === 0) return '';
  const more = list.length > UNCOVERED_SHOWN ? ` … and ${list.length - UNCOVERED_SHOWN} more` : '';
  const what = r.metric.startsWith('coverage.funnel.') ? 'reached by no conversation of' : 'not covered';
  return `; ${what}: ${list.slice(0, UNCOVERED_SHOWN).join(', ')}${more}`;
}

/** `ack.p99 < 100 ms`: the threshold with its limit's unit. */
function thresholdHead(r: Pick<ThresholdResult, 'metric' | 'op' | 'limit' | 'unit'>): string {
  return `${r.metric} ${r.op} ${formatLimit(r.limit, r.unit)}`;
}

/**
 * The verdict without the mark: `ack.p99 < 100 ms (actual 41.2 ms, 812 samples)`,
 * `ackServer.p99 < 100 ms (actual 61.2 ms, 812 samples; client-side ack.p99 93.5 ms)`,
 * `answer.p99 < 2 s: too few samples (16 < 100)`, `sync.p50 < 1 s: no samples`,
 * `ack.p99 < 100 ms: not judged: generator-bound, send delay p99 45.2 ms > 10 ms (actual 1.59 s, 812 samples)`
 * (the figure as measured, not compared with the limit: thresholds-trust.ts).
 * Counts (`ack.count`, `outcome.x.count`, `receiver.x`) show the figure only. A coverage share
 * names what it found not covered: `coverage.products >= 100% (actual 33.3%, 3 products; not
 * covered: Wool beanie, Rain jacket)`.
 */
export function thresholdVerdictText(r: ThresholdResult): string {
  const head = thresholdHead(r);
  if (r.status === 'no-samples' || r.actual === null) return `${head}: no samples`;
  if (r.status === 'too-few-samples') return `${head}: too few samples (${r.count} < ${r.minCount})`;
  const figure = formatFigure(r.actual, r.unit, r.status === 'not-judged' ? undefined : r.limit);
  const untrusted = r.status === 'not-judged' ? `: not judged: ${distrustText(r.notJudged ?? [])}` : '';
  if (r.unit === 'count') return `${head}${untrusted} (actual ${figure})`;
  const beside = r.beside
    ? `; client-side ${r.beside.metric} ${r.beside.actual === null ? 'no samples' : formatFigure(r.beside.actual, r.unit)}`
    : '';
  return `${head}${untrusted} (actual ${figure}, ${sampleNoun(r.metric, r.count)}${beside}${uncoveredText(r)})`;
}

/** One line: mark and verdict, e.g. `✓ ack.p99 < 100 ms (actual 41.2 ms, 812 samples)`. */
export function describeThreshold(r: ThresholdResult): string {
  return `${THRESHOLD_MARKS[r.status]} ${thresholdVerdictText(r)}`;
}

/**
 * The verdict line's part for `not-judged` thresholds: `3 thresholds not judged: generator-bound`
 * (each trust condition once); undefined when every threshold was judged or lacked samples.
 */
export function notJudgedSummary(results: readonly ThresholdResult[]): string | undefined {
  const list = results.filter((r) => r.status === 'not-judged');
  if (list.length === 0) return undefined;
  const conditions = [...new Set(list.flatMap((r) => (r.notJudged ?? []).map((d) => d.condition)))];
  return `${list.length} threshold${list.length === 1 ? '' : 's'} not judged: ${conditions.join(', ')}`;
}
