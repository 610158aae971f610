/**
 * `summary` (requests, outcomes, verdict counts, retries) and `accounting` (the invariant as
 * checked: outcomes add up to the requests, every answer webhook classified once). Every job
 * writes them; shards merge by adding.
 */
import { z } from 'zod';
import { OUTCOMES, zeroOutcomes } from '../../outcomes.js';
import type { Accounting, TallySnapshot } from '../run-types.js';
import { defineSection } from '../section.js';
import { span, pct, type SectionView } from '../view.js';
import { count, countsRequests, obj, outcomeCounts, type Assert, type Same } from './common.js';

const summarySchema = obj({
  requests: count.describe('requests planned (run) or sent (load, capacity): the outcomes add up to it'),
  sent: count.describe('requests sent (every outcome but not-sent)'),
  outcomes: outcomeCounts.describe('every outcome name, zeros included'),
  scenarios: count.describe('records with a verdict (passed or failed)'),
  passed: count,
  failed: count,
  passRate: z.number().min(0).max(1).describe('passed / scenarios, 0..1; 1 when no scenario had a verdict'),
  judgeErrors: count.optional().describe('records whose graded expectations got no verdict; absent: 0'),
  notJudged: count
    .optional()
    .describe('of judgeErrors, records left "not judged: budget spent" (no model call was made); absent: 0'),
  retries: count.describe('submit retries (--retries) over all records'),
});
export type ReportSummary = z.output<typeof summarySchema>;

const accountingSchema = obj({
  requests: count,
  sent: count,
  notSent: count,
  outcomes: count,
  webhooks: obj({ received: count, classified: count }),
});
const _accounting: Assert<Same<z.output<typeof accountingSchema>, Accounting>> = true;
void _accounting;

/** The summary of a tally (runner/tally.ts). */
function summaryOfTally(t: TallySnapshot): ReportSummary {
  const scenarios = t.passed + t.failed + t.judgeErrors;
  return {
    requests: t.requests,
    sent: t.sent,
    outcomes: { ...t.outcomes },
    scenarios,
    passed: t.passed,
    failed: t.failed,
    passRate: scenarios === 0 ? 1 : t.passed / scenarios,
    retries: t.retries,
    ...(t.judgeErrors > 0 && { judgeErrors: t.judgeErrors }),
    ...(t.notJudged > 0 && { notJudged: t.notJudged }),
  };
}

function mergeSummaries(list: readonly ReportSummary[]): ReportSummary {
  const outcomes = zeroOutcomes();
  const sum = (f: (s: ReportSummary) => number): number => list.reduce((n, s) => n + f(s), 0);
  for (const s of list) for (const o of OUTCOMES) outcomes[o] += s.outcomes[o];
  const scenarios = sum((s) => s.scenarios);
  const passed = sum((s) => s.passed);
  const judgeErrors = sum((s) => s.judgeErrors ?? 0);
  const notJudged = sum((s) => s.notJudged ?? 0);
  return {
    requests: sum((s) => s.requests),
    sent: sum((s) => s.sent),
    outcomes,
    scenarios,
    passed,
    failed: sum((s) => s.failed),
    passRate: scenarios === 0 ? 1 : passed / scenarios,
    retries: sum((s) => s.retries),
    ...(judgeErrors > 0 && { judgeErrors }),
    ...(notJudged > 0 && { notJudged }),
  };
}

function mergeAccounting(list: readonly Accounting[]): Accounting {
  const sum = (f: (a: Accounting) => number): number => list.reduce((n, a) => n + f(a), 0);
  return {
    requests: sum((a) => a.requests),
    sent: sum((a) => a.sent),
    notSent: sum((a) => a.notSent),
    outcomes: sum((a) => a.outcomes),
    webhooks: { received: sum((a) => a.webhooks.received), classified: sum((a) => a.webhooks.classified) },
  };
}

/** What the summary's view reads: its fields, and the report's entries (scenarios.ts) to say whether it sent a plan. */
type SummaryDoc = { summary: ReportSummary; accounting?: Accounting; scenarios: readonly unknown[] };

/**
 * `answered 35 · failed (error payload) 1 · retries 2  (36 of 36 planned requests sent)`: the
 * `failed` outcome (the webhook carried the error payload, spec: Events) is named so, not to be
 * read as failed expectations; then a table of the outcomes that happened with their shares.
 */
function outcomesView(d: SummaryDoc): SectionView {
  const s = d.summary;
  const shown = OUTCOMES.filter((o) => s.outcomes[o] > 0 || o === 'answered');
  const label = (o: string): string => (o === 'failed' ? 'failed (error payload)' : o);
  // A job that kept its records sent a plan (one entry per planned request, those never sent included).
  const planned =
    d.scenarios.length > 0 ? `${s.sent} of ${s.requests} planned requests sent` : `${s.sent} requests sent`;
  const total = Math.max(1, s.requests);
  const bad = (o: string): boolean => o !== 'answered' && o !== 'interrupted' && o !== 'not-sent';
  return {
    id: 'outcomes',
    title: 'Outcomes',
    summary: [
      shown.map((o) => `${label(o)} ${s.outcomes[o]}`).join(' · '),
      ...(s.retries > 0 ? [' · ', span(`retries ${s.retries}`, 'warn')] : []),
      `  (${planned})`,
    ],
    // The table adds shares when more than one outcome happened; one alone is all in the line above.
    tables:
      shown.filter((o) => s.outcomes[o] > 0).length < 2
        ? []
        : [
            {
              columns: [{ header: 'outcome' }, { header: 'count' }, { header: 'share' }],
              rows: shown.map((o) => [
                span(label(o), s.outcomes[o] > 0 && bad(o) ? 'fail' : undefined),
                String(s.outcomes[o]),
                pct(s.outcomes[o] / total, 1),
              ]),
            },
          ],
    ...(d.accounting &&
      d.accounting.outcomes !== d.accounting.requests && {
        notes: [span(`outcomes add up to ${d.accounting.outcomes}, not ${d.accounting.requests} requests`, 'fail')],
      }),
  };
}

export const summarySection = defineSection({
  name: 'summary',
  fields: {
    summary: summarySchema,
    accounting: accountingSchema.optional().describe('the accounting invariant as checked'),
  },
  compute: (input) => ({
    summary: summaryOfTally(input.tally),
    ...(input.accounting && { accounting: input.accounting }),
  }),
  merge: (docs: readonly { summary: ReportSummary; accounting?: Accounting }[]) => {
    const accounting = docs.every((d) => d.accounting) ? mergeAccounting(docs.map((d) => d.accounting!)) : undefined;
    return { summary: mergeSummaries(docs.map((d) => d.summary)), ...(accounting && { accounting }) };
  },
  views: (d: SummaryDoc) => (countsRequests(d) ? [outcomesView(d)] : []),
});
