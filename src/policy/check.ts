/**
 * `checkAnswer(policy, payload, context)`: every rule the policy switches on, applied to one
 * answer payload (or a `send` step's reply). Pure: the same policy, payload and context give
 * the same findings; the run-wide state other-customer-data needs is the context's registry.
 */
import { readAnswer } from './answer.js';
import { POLICY_RULES, type PolicyRuleId } from './registry.js';
import type { CheckContext, Policy, PolicyFinding, RuleVerdict } from './types.js';

/** What one rule the policy switches on made of the answer: held, broken, undecided (why), not applicable. */
export interface RuleOutcome {
  rule: PolicyRuleId;
  verdict: RuleVerdict;
  /** With `undecided`: what was missing, e.g. `a cart line without a unit price`. */
  reason?: string;
}

export interface AnswerCheck {
  findings: PolicyFinding[];
  /** Rules that were on but could not decide (the fields they need were missing). */
  undecided: PolicyRuleId[];
  /** Every rule the policy switches on, in registry order, with its verdict on this answer (a rule that is off is left out). */
  verdicts: RuleOutcome[];
}

/** The findings and the undecided rules of one answer (see {@link checkAnswer}). */
export function checkAnswerFully(policy: Policy, payload: unknown, context: CheckContext = {}): AnswerCheck {
  const answer = readAnswer(payload);
  const turn = context.turn ?? 1;
  const out: AnswerCheck = { findings: [], undecided: [], verdicts: [] };
  for (const rule of POLICY_RULES) {
    if (!rule.applies(policy)) continue;
    const result = rule.check(policy, answer, context);
    if (result.findings.length > 0) out.verdicts.push({ rule: rule.id, verdict: 'broken' });
    else if (result.undecided !== undefined) {
      out.undecided.push(rule.id);
      out.verdicts.push({ rule: rule.id, verdict: 'undecided', reason: result.undecided });
    } else out.verdicts.push({ rule: rule.id, verdict: result.notApplicable ? 'not-applicable' : 'held' });
    for (const f of result.findings)
      out.findings.push({
        rule: rule.id,
        turn,
        ...f,
        ...(context.requestId !== undefined && { requestId: context.requestId }),
      });
  }
  return out;
}

/**
 * The policy's violations in one answer payload: each with its rule id, the answer turn, the
 * field, what the policy expected and what came, and the requestId when the context gives it.
 * A rule whose fields are missing finds nothing (undecided, never failed).
 */
export function checkAnswer(policy: Policy, payload: unknown, context: CheckContext = {}): PolicyFinding[] {
  return checkAnswerFully(policy, payload, context).findings;
}
