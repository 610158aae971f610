/**
 * `policy`: the shop policy's verdict on every answer of the job (docs/policy.md): answers
 * checked, violations in all and by rule (every rule the registry knows, 0 when none), answers a
 * rule could not decide, and the first findings with their evidence (rule, scenario, turn,
 * field, expected vs got, requestId). Absent when the job read no policy. Shards merge by adding
 * the counts; the findings are those of the inputs, as many as one report keeps.
 *
 * A violation already failed its request (the record's failures), so the exit code needs
 * nothing from here; `policy.violations` and `policy.<rule>.violations` are threshold metrics
 * (sections/thresholds.ts reads this section, which comes before it).
 */
import { z } from 'zod';
import { MAX_FINDINGS, type PolicySnapshot } from '../../policy/index.js';
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

const policySchema = obj({
  file: z.string().describe('the policy file'),
  answers: count.describe('answers (and send replies) checked'),
  violations: count,
  byRule: z.record(z.string(), count).describe('violations by rule id; every rule, 0 when none'),
  undecided: z.record(z.string(), count).describe('answers a rule could not decide (fields missing), by rule id'),
  findings: z.array(findingSchema).describe(`the first ${MAX_FINDINGS} findings with their evidence`),
});
const _policy: Assert<Same<z.output<typeof policySchema>, PolicySnapshot>> = true;
void _policy;

export type PolicySection = PolicySnapshot;
type Doc = { policy?: PolicySection };

const SHOWN = 20;

function findingsTable(p: PolicySection, max: number): SectionView['tables'] {
  if (p.findings.length === 0) return [];
  const rows = p.findings
    .slice(0, max)
    .map((f) => [
      span(f.rule, 'fail'),
      f.scenario,
      String(f.turn),
      span(f.field, 'muted'),
      f.expected,
      f.got,
      f.requestId ?? '',
    ]);
  const more = p.violations - Math.min(max, p.findings.length);
  return [
    {
      columns: [
        { header: 'rule', align: 'l' },
        { header: 'scenario', align: 'l' },
        { header: 'turn' },
        { header: 'field', align: 'l' },
        { header: 'expected', align: 'l' },
        { header: 'got', align: 'l' },
        { header: 'requestId', align: 'l' },
      ],
      rows,
      ...(more > 0 && { more: `… ${more} more (counted above; report.json keeps the first ${MAX_FINDINGS})` }),
    },
  ];
}

function policyView(p: PolicySection, max: number): SectionView {
  const failing = Object.entries(p.byRule).filter(([, n]) => n > 0);
  const undecided = Object.entries(p.undecided).filter(([, n]) => n > 0);
  return {
    id: 'policy',
    title: 'Shop policy',
    tone: p.violations > 0 ? 'fail' : 'ok',
    summary: [
      `${plural(p.answers, 'answer')} checked against ${p.file} · `,
      span(plural(p.violations, 'violation'), p.violations > 0 ? 'fail' : 'ok'),
      ...(failing.length > 0 ? [` (${failing.map(([r, n]) => `${r} ${n}`).join(', ')})`] : []),
    ],
    ...(undecided.length > 0 && {
      notes: [span(`undecided (fields missing): ${undecided.map(([r, n]) => `${r} ${n}`).join(', ')}`, 'muted')],
    }),
    tables: findingsTable(p, max),
  };
}

/** One JUnit testcase per rule: a failure naming its first findings when it was violated. */
function policyJUnit(p: PolicySection): JUnitSuite[] {
  const cases = Object.entries(p.byRule).map(([rule, n]): JUnitCase => {
    const tc = { classname: 'droidcheck.policy', name: rule, timeMs: 0 };
    if (n === 0) return tc;
    const lines = p.findings
      .filter((f) => f.rule === rule)
      .slice(0, 10)
      .map(
        (f) =>
          `${f.scenario} turn ${f.turn} ${f.field}: expected ${f.expected}, got ${f.got}${f.requestId ? ` (${f.requestId})` : ''}`,
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
        findings: all.flatMap((p) => p.findings).slice(0, MAX_FINDINGS),
      },
    };
  },
  views: (d: Doc) => (d.policy ? [policyView(d.policy, MAX_FINDINGS)] : []),
  brief: (d: Doc) => (d.policy ? [policyView(d.policy, SHOWN)] : []),
  junit: (d: Doc) => (d.policy ? policyJUnit(d.policy) : []),
});
