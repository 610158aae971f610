/**
 * Findings grouped by defect: one wrong price met in 40 answers, sync and async, in three
 * scenarios is one defect of the droid, not 40 rows (docs/policy.md, "Findings and defects").
 *
 * - A defect is (rule, subject, expected, got): the subject is what the finding is about in
 *   every answer that has it (a cart line's product, a phrase; else the field without its
 *   positions, `shoppingCart.products[].price`), `got` what came (for a phrase, the phrase:
 *   the text around it differs from answer to answer).
 * - A rule that restates another's finding in the same answer is folded under it, counted in
 *   the defect's `restated`, never a defect of its own: `max-discount` on a total that is low
 *   because a line's price is below the list (catalogue-price), because the total leaves out
 *   the fee (cart-arithmetic) or because the fee is wrong (shipping-fee).
 * - Each defect counts the answers it was seen in, its modes and its scenarios.
 *
 * Every violation still counts in the rule's figures (`byRule`, `policy.<rule>.violations`):
 * folding changes what a reader is shown, not what a threshold judges.
 */
import type { PolicyFinding } from './types.js';

/** Distinct defects kept with their counts (the violations beyond are counted by rule only). */
export const MAX_DEFECTS = 100;
/** Scenario names kept per defect (their number is counted beyond). */
const MAX_SCENARIOS = 20;

/** Rules whose finding restates another rule's finding in the same answer, and the rules it restates. */
const RESTATES: Readonly<Record<string, readonly string[]>> = {
  'max-discount': ['catalogue-price', 'cart-arithmetic', 'shipping-fee'],
};

/** One defect of the droid: what was wrong, and where it was seen (the report's `policy.defects[]`). */
export interface PolicyDefect {
  rule: string;
  /** A cart line's product, a phrase, or the field without its positions. */
  subject: string;
  expected: string;
  /** What came: the first answer's, or what stands for it when the text around it varies (a phrase). */
  got: string;
  /** Answers it was seen in. */
  answers: number;
  /** `sync`, `async` (sorted). */
  modes: string[];
  /** Its scenarios' names, the first 20. */
  scenarios: string[];
  /** How many scenarios (at least `scenarios.length`). */
  scenarioCount: number;
  /** A requestId of an answer with it (an async one), to find it in the service's logs. */
  requestId?: string;
  /** Rules that restated it in the same answers, folded here, with their counts. */
  restated: Record<string, number>;
}

/** Where an answer came from, for its defects' counts. */
export interface DefectSource {
  mode?: string | undefined;
  scenario: string;
}

/** The field without its array positions: `shoppingCart.products[0].price` -> `shoppingCart.products[].price`. */
const positionless = (field: string): string => field.replace(/\[\d+\]/g, '[]');

/** What a finding is about (see the module docs). */
export function subjectOf(f: PolicyFinding): string {
  return f.subject ?? positionless(f.field);
}

const keyOf = (f: PolicyFinding): string => JSON.stringify([f.rule, subjectOf(f), f.expected, f.same ?? f.got]);

/**
 * The findings of one answer as defects: each finding that is not a restatement (module docs),
 * with the rules that restated it in this answer.
 */
export function foldAnswer(findings: readonly PolicyFinding[]): { finding: PolicyFinding; restated: string[] }[] {
  const out: { finding: PolicyFinding; restated: string[] }[] = [];
  const restating: PolicyFinding[] = [];
  for (const f of findings) {
    const under = RESTATES[f.rule];
    if (under && findings.some((g) => under.includes(g.rule))) restating.push(f);
    else out.push({ finding: f, restated: [] });
  }
  for (const f of restating) {
    const under = RESTATES[f.rule]!;
    out.find((d) => under.includes(d.finding.rule))?.restated.push(f.rule);
  }
  return out;
}

/** The defects of a job, as its answers are checked (PolicyJudge). */
export class DefectBook {
  readonly #defects = new Map<string, PolicyDefect & { names: Set<string> }>();

  /** Counts the findings of one answer. */
  add(findings: readonly PolicyFinding[], source: DefectSource): void {
    for (const { finding: f, restated } of foldAnswer(findings)) {
      const key = keyOf(f);
      let d = this.#defects.get(key);
      if (!d) {
        if (this.#defects.size >= MAX_DEFECTS) continue;
        d = {
          rule: f.rule,
          subject: subjectOf(f),
          expected: f.expected,
          got: f.same ?? f.got,
          answers: 0,
          modes: [],
          scenarios: [],
          scenarioCount: 0,
          restated: {},
          names: new Set(),
        };
        this.#defects.set(key, d);
      }
      d.answers += 1;
      if (source.mode !== undefined && !d.modes.includes(source.mode)) d.modes = [...d.modes, source.mode].sort();
      if (!d.names.has(source.scenario)) {
        d.names.add(source.scenario);
        d.scenarioCount += 1;
        if (d.scenarios.length < MAX_SCENARIOS) d.scenarios.push(source.scenario);
      }
      if (d.requestId === undefined && f.requestId !== undefined) d.requestId = f.requestId;
      for (const rule of restated) d.restated[rule] = (d.restated[rule] ?? 0) + 1;
    }
  }

  /** The defects, most answers first. */
  list(): PolicyDefect[] {
    return sortDefects(
      [...this.#defects.values()].map(({ names: _names, ...d }) => ({ ...d, restated: { ...d.restated } })),
    );
  }
}

/** Most answers first, then by rule and subject (a stable order for reports and tests). */
function sortDefects(list: PolicyDefect[]): PolicyDefect[] {
  return list.sort(
    (a, b) => b.answers - a.answers || a.rule.localeCompare(b.rule) || a.subject.localeCompare(b.subject),
  );
}

/**
 * The defects of several reports (shards) as one: the same defect's counts added, its modes
 * and scenarios united (`scenarioCount`: at least the largest input's, and the names kept).
 */
export function mergeDefects(lists: readonly (readonly PolicyDefect[])[]): PolicyDefect[] {
  const byKey = new Map<string, PolicyDefect>();
  for (const list of lists) {
    for (const d of list) {
      const key = JSON.stringify([d.rule, d.subject, d.expected, d.got]);
      const m = byKey.get(key);
      if (!m) {
        if (byKey.size < MAX_DEFECTS)
          byKey.set(key, { ...d, modes: [...d.modes], scenarios: [...d.scenarios], restated: { ...d.restated } });
        continue;
      }
      m.answers += d.answers;
      m.modes = [...new Set([...m.modes, ...d.modes])].sort();
      const names = [...new Set([...m.scenarios, ...d.scenarios])];
      m.scenarios = names.slice(0, MAX_SCENARIOS);
      m.scenarioCount = Math.max(m.scenarioCount, d.scenarioCount, names.length);
      m.requestId ??= d.requestId;
      for (const [rule, n] of Object.entries(d.restated)) m.restated[rule] = (m.restated[rule] ?? 0) + n;
    }
  }
  return sortDefects([...byKey.values()]);
}
