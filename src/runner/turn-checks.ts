/**
 * The runner's one call into the shop policy (src/policy, docs/policy.md) and the coverage
 * (src/coverage, docs/coverage.md) for every customer turn and every answer a request gets (a
 * plain scenario's, a `say` step's, a simulated or red-team turn's, a `send` step's reply):
 *
 * - the policy checks the answer, and each violation becomes a failure of that request, with
 *   its evidence (rule, turn, field, expected vs got, requestId), so its scenario fails (exit 1);
 *   without a policy (`ctx.policy` undefined) nothing is checked;
 * - the coverage counts the products the customer named, what the answer quoted, carted and
 *   reported, how far the conversation got, and the rules' verdicts; it never fails anything.
 *
 * The customer's messages are registered as they are sent, before any answer can repeat them
 * (other-customer-data). A conversation is keyed by its scenario and its first customer
 * message, so a scenario's repeats and modes are one customer, and each red-team attack
 * (one scenario, many first messages) its own.
 */
import type { ChatHistoryItem } from '../contract/index.js';
import type { PolicyFinding, RuleOutcome } from '../policy/index.js';
import { POLICY_RULES } from '../policy/index.js';
import type { ExpectationFailure } from '../scenario/index.js';
import type { SourceLocation } from '../errors.js';
import type { ExecuteContext } from './context.js';
import type { RequestRecord } from './types.js';

/** What the policy and the coverage read of a turn: the customer's new message and the conversation before it. */
export interface PolicyTurn {
  humanMessage: string;
  chatHistory: readonly ChatHistoryItem[];
  /** Where the turn is written (the scenario, or its `say` or `send` step): where a finding whose limit is no policy line points. */
  location?: SourceLocation | undefined;
}

const humanTexts = (turn: PolicyTurn): string[] => [
  ...turn.chatHistory.filter((h) => h.type === 'human').map((h) => h.content),
  turn.humanMessage,
];

const conversationOf = (record: RequestRecord, texts: readonly string[]): string =>
  `${record.file}\u0000${record.scenario}\u0000${texts[0] ?? ''}`;

/** Registers the customer's messages of `turn` before it is sent. */
export function turnSent(ctx: ExecuteContext, record: RequestRecord, turn: PolicyTurn): void {
  if (!ctx.policy && !ctx.coverage) return;
  const texts = humanTexts(turn);
  const conversation = conversationOf(record, texts);
  ctx.policy?.sent(conversation, texts);
  ctx.coverage?.sent(conversation, record.suite, texts);
}

function failureOf(ctx: ExecuteContext, f: PolicyFinding, turn: PolicyTurn): ExpectationFailure {
  const policy = ctx.policy!.policy;
  const rule = POLICY_RULES.find((r) => r.id === f.rule);
  const fromPolicy = rule?.key && policy.locations[rule.key];
  const location = (rule?.limit === 'answer' && turn.location) || fromPolicy || { file: policy.file, line: 1, col: 1 };
  // No requestId in the message: the record has it, and the same defect of the sync and the
  // async answer reads the same (report/failure-groups.ts groups them as one failure).
  return {
    path: f.field,
    matcher: `policy:${f.rule}`,
    expected: f.expected,
    actual: f.got,
    message: `policy ${f.rule} (turn ${f.turn}): ${f.message}`,
    location,
  };
}

/**
 * Checks one answer payload (or a `send` reply) of `record` against the job's policy and counts
 * it in the job's coverage; returns the policy's violations as failures (none without a policy).
 */
export function answerChecks(
  ctx: ExecuteContext,
  record: RequestRecord,
  turn: PolicyTurn,
  payload: unknown,
): ExpectationFailure[] {
  if (!ctx.policy && !ctx.coverage) return [];
  const texts = humanTexts(turn);
  const conversation = conversationOf(record, texts);
  let findings: PolicyFinding[] = [];
  let verdicts: RuleOutcome[] | undefined;
  if (ctx.policy) {
    const checked = ctx.policy.check(payload, {
      conversation,
      humanTexts: texts,
      scenario: record.scenario,
      turn: texts.length,
      mode: record.mode,
      ...(record.requestId !== undefined && { requestId: record.requestId }),
    });
    findings = checked.findings;
    verdicts = checked.verdicts;
  }
  ctx.coverage?.answered(conversation, record.suite, texts, payload, verdicts);
  return findings.map((f) => failureOf(ctx, f, turn));
}
