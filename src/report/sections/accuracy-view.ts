/**
 * How the accuracy section reads (accuracy.ts computes it): the intent table, the confusion
 * matrix and the cart/address hit rates in full, or the console's one line with only what went
 * wrong.
 */
import { pct, span, type SectionView, type ViewTable } from '../view.js';
import type { AccuracyReport, IntentMetrics } from './accuracy-schema.js';

/** Support, TP, FP, FN, precision, recall and f1 of each intent. */
function intentTable(intents: readonly IntentMetrics[]): ViewTable {
  return {
    columns: ['intent', 'support', 'TP', 'FP', 'FN', 'precision', 'recall', 'f1'].map((header) => ({ header })),
    rows: intents.map((m) => [
      m.intent,
      String(m.support),
      String(m.truePositives),
      String(m.falsePositives),
      String(m.falseNegatives),
      pct(m.precision),
      pct(m.recall),
      pct(m.f1),
    ]),
  };
}

/** Intent table (from the confusion matrix), the matrix when anything is off its diagonal (at most `maxCols` columns), and cart/address hit rates. */
export function accuracyView(a: AccuracyReport, maxCols = 8): SectionView {
  const tables: ViewTable[] = [];
  if (a.intents.length > 0) {
    tables.push(intentTable(a.intents));
    const off = a.confusion.expected.some((e) =>
      Object.entries(a.confusion.counts[e] ?? {}).some(([c, n]) => c !== e && n > 0),
    );
    if (off) {
      const cols = a.confusion.actual.slice(0, maxCols);
      const cell = (e: string, c: string) => {
        const n = a.confusion.counts[e]?.[c] ?? 0;
        return n === 0 ? span('0', 'muted') : span(String(n), c === e ? 'ok' : 'fail');
      };
      tables.push({
        caption: 'confusion (rows expected, columns returned)',
        columns: [{ header: '' }, ...cols.map((header) => ({ header }))],
        rows: a.confusion.expected.map((e) => [e, ...cols.map((c) => cell(e, c))]),
        ...(a.confusion.actual.length > maxCols && {
          more: `… ${a.confusion.actual.length - maxCols} more columns in report.json`,
        }),
      });
    }
  }
  const notes = fieldGroups(a).map(
    (g) =>
      `${g.group} fields: ${g.hits}/${g.checks} hit (${pct(g.checks === 0 ? null : g.hits / g.checks)})${g.misses.length > 0 ? `; ${g.misses.join(', ')}` : ''}`,
  );
  return { id: 'accuracy', title: 'Accuracy', summary: `${a.samples} labelled answers`, tables, notes };
}

/** Cart and address checks summed, with the fields that missed (`path missed 2 of 10`); groups without checks left out. */
function fieldGroups(a: AccuracyReport): { group: string; checks: number; hits: number; misses: string[] }[] {
  return (['cart', 'address'] as const).flatMap((group) => {
    const fields = a.fields.filter((f) => f.group === group);
    if (fields.length === 0) return [];
    return [
      {
        group,
        checks: fields.reduce((n, f) => n + f.checks, 0),
        hits: fields.reduce((n, f) => n + f.hits, 0),
        // Counted as what they are: `grandTotal missed 2 of 10`, never `2/10` read as a score.
        misses: fields
          .filter((f) => f.hits < f.checks)
          .map((f) => `${f.path} missed ${f.checks - f.hits} of ${f.checks}`),
      },
    ];
  });
}

/**
 * The console's default: one line, `30 labelled answers · intents 30/30, 0 wrong · fields: cart
 * 34/34, address 37/37 hit`, then only what went wrong: the intents missed or wrongly returned (the
 * table's columns) and the fields that missed.
 */
export function accuracyBrief(a: AccuracyReport): SectionView {
  const sum = (f: (m: IntentMetrics) => number): number => a.intents.reduce((n, m) => n + f(m), 0);
  const groups = fieldGroups(a);
  const summary = [
    ...(a.samples > 0
      ? [
          `${a.samples} labelled answers`,
          `intents ${sum((m) => m.truePositives)}/${sum((m) => m.support)}, ${sum((m) => m.falsePositives)} wrong`,
        ]
      : []),
    // One line that fits the console: `fields: cart 40/40, address 37/37 hit`.
    ...(groups.length > 0 ? [`fields: ${groups.map((g) => `${g.group} ${g.hits}/${g.checks}`).join(', ')} hit`] : []),
  ].join(' · ');
  const off = a.intents.filter((m) => m.falsePositives + m.falseNegatives > 0);
  return {
    id: 'accuracy',
    title: 'Accuracy',
    summary,
    tables: off.length > 0 ? [intentTable(off)] : [],
    notes: groups.filter((g) => g.misses.length > 0).map((g) => `${g.group} fields: ${g.misses.join(', ')}`),
  };
}
