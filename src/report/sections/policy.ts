/**
 * `policy`: the shop policy's verdict on every answer of the job (docs/policy.md): answers
 * checked, violations in all and by rule (every rule the registry knows, 0 when none), answers a
 * rule could not decide, the findings grouped by defect (one row per defect: rule, product or
 * field, expected, got, with the answers, modes and scenarios it was seen in; rules that restate
 * it folded under it: policy/defects.ts), and the first findings with their evidence (rule,
 * scenario, turn, field, expected vs got, requestId; report.json). Absent when the job read no
 * policy. Shards merge by adding the counts and the same defects; the findings are those of the
 * inputs, as many as one report keeps.
 *
 * A violation already failed its request (the record's failures), so the exit code needs
 * nothing from here; `policy.violations` and `policy.<rule>.violations` are threshold metrics
 * (sections/thresholds.ts reads this section, which comes before it).
 */
import { z } from 'zod';
import { MAX_DEFECTS, MAX_FINDINGS, mergeDefects, type PolicyDefect, type PolicySnapshot } from '../../policy/index.js';
import { defineSection, fromEvery, type JUnitCase, type JUnitSuite } from '../section.js';
import { plural, span, type SectionView } from '../view.js';
import { count, obj, type Assert, type Same } from './common.js';

const findingSchema = obj({
  rule: z.string().describe('the rule id, e.g. catalogue-price'),
  turn: count.describe('the answer turn in its conversation, 1-based'),
  field: z.string().describe('where in the answer, e.g. shoppingCart.products[0].price'),
  expected: z.string(),
  got: z.string(),
  message: z.string(),
  requestId: z.string().optional(),
  scenario: z.string(),
});

const defectSchema = obj({
  rule: z.string().describe('the rule that states it, e.g. catalogue-price'),
  subject: z.string().describe("a cart line's product, a phrase, or the field without its positions"),
  expected: z.string(),
  got: z.string(),
  answers: count.describe('answers it was seen in'),
  modes: z.array(z.string()).describe('sync, async'),
  scenarios: z.array(z.string()).describe('its scenarios, the first 20'),
  scenarioCount: count.describe('how many scenarios'),
  requestId: z.string().optional().describe('an answer with it, to find in the service'),
  restated: z.record(z.string(), count).describe('rules that restated it in the same answers, folded here'),
});
const _defect: Assert<Same<z.output<typeof defectSchema>, PolicyDefect>> = true;
void _defect;

const policySchema = obj({
  file: z.string().describe('the policy file'),
  answers: count.describe('answers (and send replies) checked'),
  violations: count,
  byRule: z.record(z.string(), count).describe('violations by rule id; every rule, 0 when none'),
  undecided: z.record(z.string(), count).describe('answers a rule could not decide (fields missing), by rule id'),
  defects: z
    .array(defectSchema)
    .default([])
    .describe(`the findings grouped by defect, most answers first (the first ${MAX_DEFECTS} defects)`),
  findings: z.array(findingSchema).describe(`the first ${MAX_FINDINGS} findings with their evidence`),
});
const _policy: Assert<Same<z.output<typeof policySchema>, PolicySnapshot>> = true;
void _policy;

export type PolicySection = PolicySnapshot;
type Doc = { policy?: PolicySection };

/** Defects the console shows (every one in Markdown, HTML and report.json). */
const SHOWN = 20;

/** `sync`, `async`, or `both`. */
const modesText = (modes: readonly string[]): string =>
  modes.length === 0 ? '-' : modes.length === 2 ? 'both' : modes.join(', ');

/** A cart field without the `shoppingCart.` everyone knows it is in. */
const subjectText = (subject: string): string => subject.replace(/^shoppingCart\./, '');

/**
 * One row per defect (policy/defects.ts): rule, product or field, expected, got, and where it
 * was seen (answers, modes, scenarios). On the console the long cells are cut so the table fits
 * 100 columns; Markdown and HTML show them whole, with the scenarios' names.
 */
function defectsTable(p: PolicySection, max: number, names: boolean): SectionView['tables'] {
  if (p.defects.length === 0) return [];
  const rows = p.defects
    .slice(0, max)
    .map((d) => [
      span(d.rule, 'fail'),
      subjectText(d.subject),
      d.expected,
      d.got,
      String(d.answers),
      modesText(d.modes),
      names
        ? `${d.scenarioCount}: ${d.scenarios.join(', ')}${d.scenarioCount > d.scenarios.length ? ', …' : ''}`
        : String(d.scenarioCount),
    ]);
  const more = p.defects.length - Math.min(max, p.defects.length);
  return [
    {
      columns: [
        { header: 'rule', align: 'l', maxWidth: 16 },
        { header: 'product or field', align: 'l', maxWidth: 16 },
        { header: 'expected', align: 'l', maxWidth: 18 },
        { header: 'got', align: 'l', maxWidth: 14 },
        { header: 'answers' },
        { header: 'modes', align: 'l' },
        { header: 'scenarios', align: names ? 'l' : 'r' },
      ],
      rows,
      ...(more > 0 && { more: `… ${more} more defects (report.json keeps them)` }),
    },
  ];
}

/** `max-discount 6 restated a defect above (folded under it)`, one per rule that restated some. */
function restatedNote(p: PolicySection): string | undefined {
  const folded: Record<string, number> = {};
  for (const d of p.defects) for (const [rule, n] of Object.entries(d.restated)) folded[rule] = (folded[rule] ?? 0) + n;
  const list = Object.entries(folded);
  if (list.length === 0) return undefined;
  return `folded under the defects they restate: ${list.map(([rule, n]) => `${rule} ${n}`).join(', ')}`;
}

function policyView(p: PolicySection, max: number, names: boolean): SectionView {
  const undecided = Object.entries(p.undecided).filter(([, n]) => n > 0);
  const folded = restatedNote(p);
  const defects = p.defects.length;
  return {
    id: 'policy',
    title: 'Shop policy',
    tone: p.violations > 0 ? 'fail' : 'ok',
    summary: [
      `${plural(p.answers, 'answer')} checked against ${p.file} · `,
      p.violations > 0
        ? span(`${plural(defects, 'defect')} (${plural(p.violations, 'violation')})`, 'fail')
        : span('0 violations', 'ok'),
    ],
    notes: [
      ...(folded ? [span(folded, 'muted')] : []),
      ...(undecided.length > 0
        ? [span(`undecided (fields missing): ${undecided.map(([r, n]) => `${r} ${n}`).join(', ')}`, 'muted')]
        : []),
    ],
    tables: defectsTable(p, max, names),
  };
}

/** One JUnit testcase per rule: a failure naming its defects when it was violated. */
function policyJUnit(p: PolicySection): JUnitSuite[] {
  const cases = Object.entries(p.byRule).map(([rule, n]): JUnitCase => {
    const tc = { classname: 'droidcheck.policy', name: rule, timeMs: 0 };
    if (n === 0) return tc;
    const lines = p.defects
      .filter((d) => d.rule === rule)
      .slice(0, 10)
      .map(
        (d) =>
          `${d.subject}: expected ${d.expected}, got ${d.got} (${plural(d.answers, 'answer')}, ${modesText(d.modes)}, ${plural(d.scenarioCount, 'scenario')}${d.requestId ? `, e.g. ${d.requestId}` : ''})`,
      );
    return {
      ...tc,
      problem: {
        kind: 'failure',
        message: `${plural(n, 'violation')} of ${rule}`,
        type: 'policy',
        text: lines.join('\n'),
      },
    };
  });
  return [{ name: 'droidcheck.policy', verdicts: true, cases }];
}

export const policySection = defineSection({
  name: 'policy',
  fields: { policy: policySchema.optional() },
  merge: (docs: readonly Doc[]) => {
    const all = fromEvery(docs, (d) => d.policy);
    if (!all || all.length === 0) return {};
    const add = (pick: (p: PolicySection) => Record<string, number>): Record<string, number> => {
      const out: Record<string, number> = {};
      for (const p of all) for (const [k, n] of Object.entries(pick(p))) out[k] = (out[k] ?? 0) + n;
      return out;
    };
    return {
      policy: {
        file: all[0]!.file,
        answers: all.reduce((n, p) => n + p.answers, 0),
        violations: all.reduce((n, p) => n + p.violations, 0),
        byRule: add((p) => p.byRule),
        undecided: add((p) => p.undecided),
        defects: mergeDefects(all.map((p) => p.defects)),
        findings: all.flatMap((p) => p.findings).slice(0, MAX_FINDINGS),
      },
    };
  },
  views: (d: Doc) => (d.policy ? [policyView(d.policy, MAX_DEFECTS, true)] : []),
  brief: (d: Doc) => (d.policy ? [policyView(d.policy, SHOWN, false)] : []),
  junit: (d: Doc) => (d.policy ? policyJUnit(d.policy) : []),
});
