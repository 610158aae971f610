/**
 * `PolicyJudge`: the policy of one job, applied to every answer the job gets (runner/answer-turn.ts
 * and steps.ts call it), with the run-wide state the rules need and the figures the report's
 * `policy` section shows: answers checked, violations by rule, rules left undecided, the
 * findings grouped by defect (defects.ts), and the first {@link MAX_FINDINGS} findings with their
 * evidence (a load run may find millions: the counts hold them all, the list a sample to read).
 */
import { checkAnswerFully, type AnswerCheck } from './check.js';
import { CustomerRegistry } from './customers.js';
import { DefectBook, type PolicyDefect } from './defects.js';
import { RULE_IDS, type PolicyRuleId } from './registry.js';
import type { Policy, PolicyFinding } from './types.js';

/** Findings kept with their evidence; the rest are counted. */
export const MAX_FINDINGS = 100;

/** A finding as the report keeps it: with the scenario it came from (what makes it a defect is in `defects`). */
export interface ReportedFinding extends Omit<PolicyFinding, 'subject' | 'same'> {
  scenario: string;
}

/** The report's `policy` section (report/sections/policy.ts). Counts per rule id; every rule of the policy appears. */
export interface PolicySnapshot {
  /** The findings grouped by defect, most answers first (defects.ts): what a reader is shown. */
  defects: PolicyDefect[];
  /** The policy file. */
  file: string;
  /** Answers (and `send` replies) checked. */
  answers: number;
  violations: number;
  byRule: Record<string, number>;
  /** Answers a rule could not decide (the fields it needs were missing), by rule. */
  undecided: Record<string, number>;
  findings: ReportedFinding[];
}

/** Who is asking: the conversation, its customer's messages so far, and the evidence's fields. */
export interface JudgedTurn {
  /** The conversation's key (stable across the repeats of a scenario). */
  conversation: string;
  /** The customer's messages of this conversation so far, this turn's included. */
  humanTexts: readonly string[];
  scenario: string;
  requestId?: string;
  /** 1-based. */
  turn: number;
  /** `sync` or `async`: the defects say which modes they were seen in. */
  mode?: string;
}

export class PolicyJudge {
  readonly customers = new CustomerRegistry();
  #answers = 0;
  #violations = 0;
  readonly #byRule = new Map<PolicyRuleId, number>();
  readonly #undecided = new Map<PolicyRuleId, number>();
  readonly #findings: ReportedFinding[] = [];
  readonly #defects = new DefectBook();

  constructor(readonly policy: Policy) {}

  /** A conversation's customer messages as they are sent (before any answer can repeat them). */
  sent(conversation: string, humanTexts: readonly string[]): void {
    this.customers.gave(conversation, humanTexts);
  }

  /** Checks one answer (counted in the report) and returns its findings. */
  judge(payload: unknown, turn: JudgedTurn): PolicyFinding[] {
    return this.check(payload, turn).findings;
  }

  /** Checks one answer (counted in the report): its findings, and every rule's verdict (coverage of the rules). */
  check(payload: unknown, turn: JudgedTurn): AnswerCheck {
    const result = checkAnswerFully(this.policy, payload, {
      turn: turn.turn,
      conversation: turn.conversation,
      humanTexts: turn.humanTexts,
      customers: this.customers,
      ...(turn.requestId !== undefined && { requestId: turn.requestId }),
    });
    this.customers.gaveExtracted(turn.conversation, payload, turn.humanTexts);
    this.#answers++;
    for (const id of result.undecided) this.#undecided.set(id, (this.#undecided.get(id) ?? 0) + 1);
    for (const f of result.findings) {
      this.#violations++;
      this.#byRule.set(f.rule as PolicyRuleId, (this.#byRule.get(f.rule as PolicyRuleId) ?? 0) + 1);
      if (this.#findings.length < MAX_FINDINGS) {
        const { subject: _subject, same: _same, ...evidence } = f;
        this.#findings.push({ ...evidence, scenario: turn.scenario });
      }
    }
    this.#defects.add(result.findings, { mode: turn.mode, scenario: turn.scenario });
    return result;
  }

  snapshot(): PolicySnapshot {
    const count = (m: Map<PolicyRuleId, number>): Record<string, number> =>
      Object.fromEntries(RULE_IDS.filter((id) => m.has(id)).map((id) => [id, m.get(id) ?? 0]));
    const byRule = Object.fromEntries(RULE_IDS.map((id) => [id, this.#byRule.get(id) ?? 0]));
    return {
      file: this.policy.file,
      answers: this.#answers,
      violations: this.#violations,
      byRule,
      undecided: count(this.#undecided),
      defects: this.#defects.list(),
      findings: [...this.#findings],
    };
  }
}
