/**
 * The console's default list: one line per suite instead of one per request, as k6 and vitest
 * summarise a run (`✓ Purchases  7 passed  (sync 4, async 3)`). The failures themselves are
 * listed in full below it (console.ts); `--verbose` lists every request instead.
 *
 * Counts are those of the tally (runner/tally.ts): an entry without a verdict (`not-sent`,
 * `interrupted`) is neither passed nor failed, and a judge error (a graded expectation without a
 * verdict, nothing else wrong) is counted apart. A load keeps no entries: its per scenario x mode
 * tallies give the same counts (their `failed` includes judge errors, as the tally does).
 */
import { textTable } from '../text-table.js';
import type { ScenarioEntry } from './sections/scenarios.js';
import type { ScenarioTally } from './run-types.js';
import { plural, type Paint } from './view.js';

interface SuiteCount {
  suite: string;
  passed: number;
  failed: number;
  judgeErrors: number;
  interrupted: number;
  notSent: number;
  retries: number;
  /** Requests per answer mode. */
  modes: Map<string, number>;
}

/** Modes as the scenario list names them: sync first. */
const MODE_ORDER: readonly string[] = ['sync', 'async'];

type Kind = 'passed' | 'failed' | 'judgeErrors' | 'interrupted' | 'notSent';

/** What an entry counts as (runner/tally.ts verdictOf, on the report's entry). */
function kindOf(s: ScenarioEntry): Kind {
  if (s.passed) return 'passed';
  if (s.outcome === 'not-sent') return 'notSent';
  if (s.outcome === 'interrupted') return 'interrupted';
  if (s.outcome === 'answered' && s.failures.length === 0 && (s.judgeErrors ?? []).length > 0) return 'judgeErrors';
  return 'failed';
}

/** Per suite, in the report's order: from its entries (run) or, when it has none, its tallies (load, capacity). */
export function suiteCounts(report: {
  scenarios: readonly ScenarioEntry[];
  tallies?: readonly ScenarioTally[] | undefined;
}): SuiteCount[] {
  const suites = new Map<string, SuiteCount>();
  const of = (suite: string): SuiteCount => {
    let c = suites.get(suite);
    if (!c) {
      c = { suite, passed: 0, failed: 0, judgeErrors: 0, interrupted: 0, notSent: 0, retries: 0, modes: new Map() };
      suites.set(suite, c);
    }
    return c;
  };
  for (const s of report.scenarios) {
    const c = of(s.suite);
    c[kindOf(s)] += 1;
    c.retries += s.retries ?? 0;
    c.modes.set(s.mode, (c.modes.get(s.mode) ?? 0) + 1);
  }
  if (report.scenarios.length === 0)
    for (const t of report.tallies ?? []) {
      const c = of(t.suite);
      c.passed += t.passed;
      c.failed += t.failed;
      c.interrupted += t.outcomes.interrupted;
      c.notSent += t.outcomes['not-sent'];
      c.modes.set(t.mode, (c.modes.get(t.mode) ?? 0) + t.requests);
    }
  return [...suites.values()];
}

/**
 * One line per suite, aligned: the mark (✓ every request passed, ✗ some failed, ! judge errors
 * or requests interrupted or not sent beside the passes, – none had a verdict), the name, `N passed`, what else happened (failed, judge errors,
 * interrupted, not sent, retries) and the requests per mode. At most `max` lines, then `… N more
 * suites`.
 */
export function suiteLines(counts: readonly SuiteCount[], paint: Paint, max: number): string[] {
  const rows = counts.slice(0, max).map((c) => {
    // A suite with requests that got no verdict (interrupted, not sent) was not wholly checked: never a ✓.
    const mark =
      c.failed > 0
        ? paint('fail', '✗')
        : c.judgeErrors > 0 || (c.passed > 0 && c.interrupted + c.notSent > 0)
          ? paint('warn', '!')
          : c.passed === 0
            ? paint('muted', '–')
            : paint('ok', '✓');
    const other = [
      ...(c.failed > 0 ? [paint('fail', `${c.failed} failed`)] : []),
      ...(c.judgeErrors > 0 ? [paint('warn', plural(c.judgeErrors, 'judge error'))] : []),
      ...(c.interrupted > 0 ? [paint('warn', `${c.interrupted} interrupted`)] : []),
      ...(c.notSent > 0 ? [paint('muted', `${c.notSent} not sent`)] : []),
      ...(c.retries > 0 ? [paint('warn', `retries ${c.retries}`)] : []),
    ].join(', ');
    const modes = [...c.modes]
      .sort(([a], [b]) => MODE_ORDER.indexOf(a) - MODE_ORDER.indexOf(b))
      .map(([mode, n]) => `${mode} ${n}`)
      .join(', ');
    return {
      cells: [`${mark} ${c.suite}`, `${c.passed} passed`],
      tail: `${other ? `, ${other}` : ''}  ${paint('muted', `(${modes})`)}`,
    };
  });
  // Names and passed counts aligned; what else happened follows the count (`2 passed, 1 failed`).
  const lines = textTable(
    rows.map((r) => r.cells),
    { align: ['l', 'r'] },
  ).map((line, i) => `${line}${rows[i]!.tail}`);
  if (counts.length > max) lines.push(paint('muted', `  … ${plural(counts.length - max, 'more suite')}`));
  return lines;
}
