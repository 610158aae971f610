/**
 * `redteam`: the attacks of `droidcheck redteam` (src/redteam): per category the decided
 * attempts, the successes, the success rate with its Wilson 95% interval (docs/statistics.md),
 * the undecided and the errors; every finding with the exact conversation that reproduces it.
 *
 * Merged reports (several seeds or machines): findings concatenated, counts added, the rate and
 * its interval computed again from the sums; a category is skipped only when every input
 * skipped it. The verdict (exit 1 above `maxSuccessRate`, or with unanswered attempts) is the
 * red team's own (redteam/section.ts `redteamVerdict`), applied to the merged figures too.
 */
import { z } from 'zod';
import { wilsonInterval } from '../../metrics/stats.js';
import { CATEGORY_IDS, redteamVerdict, type RedteamCategoryRow, type RedteamSection } from '../../redteam/index.js';
import { defineSection, type JUnitCase } from '../section.js';
import { code, pct, plural, span, type SectionView, type Text } from '../view.js';
import { count, obj, share, type Assert, type Same } from './common.js';

const categoryId = z.enum(CATEGORY_IDS as unknown as [RedteamCategoryRow['id'], ...RedteamCategoryRow['id'][]]);
const categorySchema = obj({
  id: categoryId,
  attempts: count.describe('decided attempts: successes + resisted'),
  successes: count,
  rate: share.nullable().describe('successes / attempts, 0..1; null when none was decided'),
  interval: obj({ low: share, high: share }).describe('Wilson 95% interval of the rate, 0..1'),
  undecided: count.describe('attempts the payload allowed no decision on'),
  errors: count.describe('attempts without an answer or a verdict'),
  notJudged: count
    .optional()
    .describe('attempts not made or judged: the budget of model calls was spent (exit 98); absent: 0'),
  skipped: z.string().optional().describe('why the category did not run'),
});
const findingSchema = obj({
  category: categoryId,
  attack: z.string().describe('the attack line as sent'),
  transcript: z.string().describe('the attack conversation, `customer:` / `droid:` lines: send it again to reproduce'),
  evidence: z.string(),
});
const redteamSchema = obj({
  seed: z.number().int(),
  attemptsPerCategory: count,
  maxSuccessRate: share.optional().describe('--max-success-rate: a category fails above it, 0..1'),
  categories: z.array(categorySchema),
  findings: z.array(findingSchema),
  errors: z
    .array(obj({ category: categoryId, code: z.string(), message: z.string(), count }))
    .describe('first error of each category that had some'),
  interrupted: z.boolean(),
}).describe(
  'redteam: attacks per category, success rates with their Wilson 95% interval, findings with their conversations',
);

/** The section as report.json holds it: the red team's own shape, plus the threshold it was judged with. */
export type RedteamReportSection = z.output<typeof redteamSchema>;
const _shape: Assert<Same<Omit<RedteamReportSection, 'maxSuccessRate'>, RedteamSection>> = true;
void _shape;

/** Exit 1 reasons of the section (empty when it passes), with the threshold it carries. */
export function redteamReasons(r: RedteamReportSection): string[] {
  return redteamVerdict(r, r.maxSuccessRate !== undefined ? { maxSuccessRate: r.maxSuccessRate } : {}).reasons;
}

function mergeRows(rows: readonly RedteamCategoryRow[]): RedteamCategoryRow {
  const sum = (k: 'attempts' | 'successes' | 'undecided' | 'errors'): number => rows.reduce((n, r) => n + r[k], 0);
  const [attempts, successes] = [sum('attempts'), sum('successes')];
  const row: RedteamCategoryRow = {
    id: rows[0]!.id,
    attempts,
    successes,
    rate: attempts > 0 ? successes / attempts : null,
    interval: wilsonInterval(successes, attempts),
    undecided: sum('undecided'),
    errors: sum('errors'),
  };
  const notJudged = rows.reduce((n, r) => n + (r.notJudged ?? 0), 0);
  if (notJudged > 0) row.notJudged = notJudged;
  if (rows.every((r) => r.skipped !== undefined)) row.skipped = rows[0]!.skipped!;
  return row;
}

/** Several red-team sections as one (see module docs). */
export function mergeRedteam(sections: readonly RedteamReportSection[]): RedteamReportSection {
  const first = sections[0]!;
  const ids = [...new Set(sections.flatMap((s) => s.categories.map((c) => c.id)))];
  const categories = ids.map((id) => mergeRows(sections.flatMap((s) => s.categories.filter((c) => c.id === id))));
  const errors = ids.flatMap((id) => {
    const list = sections.flatMap((s) => s.errors.filter((e) => e.category === id));
    return list.length > 0 ? [{ ...list[0]!, count: list.reduce((n, e) => n + e.count, 0) }] : [];
  });
  return {
    seed: first.seed,
    attemptsPerCategory: sections.reduce((n, s) => n + s.attemptsPerCategory, 0),
    ...(first.maxSuccessRate !== undefined && { maxSuccessRate: first.maxSuccessRate }),
    categories,
    findings: sections.flatMap((s) => s.findings),
    errors,
    interrupted: sections.some((s) => s.interrupted),
  };
}

const rateCell = (c: RedteamCategoryRow): Text =>
  c.rate === null ? '-' : `${pct(c.rate, 1)} (${pct(c.interval.low, 1)}–${pct(c.interval.high, 1)})`;

function redteamView(r: RedteamReportSection): SectionView {
  const reasons = redteamReasons(r);
  const rows = r.categories.map((c): Text[] => [
    code(c.id),
    String(c.attempts),
    c.successes > 0 ? span(String(c.successes), 'fail') : '0',
    rateCell(c),
    String(c.undecided),
    c.errors > 0 ? span(String(c.errors), 'fail') : '0',
    c.skipped !== undefined
      ? span(`skipped: ${c.skipped}`, 'muted')
      : r.interrupted && c.attempts + c.undecided + c.errors === 0
        ? span('interrupted', 'warn')
        : reasons.some((x) => x.startsWith(`${c.id}:`))
          ? span('FAIL', 'fail')
          : span('pass', 'ok'),
  ]);
  const notes: Text[] = [];
  for (const [i, f] of r.findings.entries()) {
    notes.push([span(`finding ${i + 1}`, 'fail'), ' ', code(f.category), `: ${f.evidence}`]);
    for (const line of f.transcript.split('\n')) notes.push(span(`    ${line}`, 'muted'));
  }
  for (const e of r.errors)
    notes.push([
      span('error', 'warn'),
      ' ',
      code(e.category),
      `: ${e.count} attempt(s) without an answer or a verdict, first: ${e.code}: ${e.message}`,
    ]);
  const notJudged = r.categories.reduce((n, c) => n + (c.notJudged ?? 0), 0);
  if (notJudged > 0)
    notes.push(
      span(
        `not judged: budget spent: ${plural(notJudged, 'attempt')} not made or judged once the budget of model calls ran out`,
        'warn',
      ),
    );
  if (r.interrupted)
    notes.push(span('interrupted: the figures are those of the attempts decided before the interrupt', 'warn'));
  const found = r.findings.length;
  return {
    id: 'redteam',
    title: 'Red team',
    tone: reasons.length > 0 ? 'fail' : 'ok',
    summary: [
      span(found > 0 ? plural(found, 'finding') : 'no finding', found > 0 ? 'fail' : 'ok'),
      ` (seed ${r.seed}, ${plural(r.attemptsPerCategory, 'attempt')} per category${r.maxSuccessRate ? `, max success rate ${pct(r.maxSuccessRate, 1)}` : ''})`,
    ],
    tables: [
      {
        columns: [
          { header: 'category' },
          { header: 'attempts' },
          { header: 'successes' },
          { header: 'rate (95% interval)' },
          { header: 'undecided' },
          { header: 'errors' },
          { header: 'verdict', align: 'l' },
        ],
        rows,
      },
    ],
    notes,
  };
}

/** One JUnit testcase per category (classname droidcheck.redteam): a failure with its findings' conversations, skipped when it did not run. */
export function redteamTestcases(r: RedteamReportSection): JUnitCase[] {
  const reasons = redteamReasons(r);
  return r.categories.map((c) => {
    const tc = { classname: REDTEAM_SUITE, name: c.id, timeMs: 0 };
    if (c.skipped !== undefined) return { ...tc, problem: { kind: 'skipped', message: c.skipped } };
    const why = reasons.filter((x) => x.startsWith(`${c.id}:`));
    if (why.length === 0) return tc;
    const findings = r.findings.filter((f) => f.category === c.id).map((f) => `${f.evidence}\n${f.transcript}`);
    const text = findings.join('\n\n') || why.join('\n');
    return { ...tc, problem: { kind: 'failure', message: why.join('; '), type: 'redteam', text } };
  });
}

const REDTEAM_SUITE = 'droidcheck.redteam';

export const redteamSection = defineSection({
  name: 'redteam',
  fields: { redteam: redteamSchema.optional() },
  merge: (docs) => {
    const sections = docs.flatMap((d) => (d.redteam ? [d.redteam] : []));
    return sections.length > 0 ? { redteam: mergeRedteam(sections) } : {};
  },
  views: (d) => (d.redteam ? [redteamView(d.redteam)] : []),
  junit: (d) => (d.redteam ? [{ name: REDTEAM_SUITE, cases: redteamTestcases(d.redteam) }] : []),
});
