/**
 * The runner's one call into the shop policy (src/policy, docs/policy.md): every answer a
 * request gets (a plain scenario's, a `say` step's, a simulated or red-team turn's, a `send`
 * step's reply) is checked against the job's policy, and each violation becomes a failure of
 * that request, with its evidence (rule, turn, field, expected vs got, requestId), so its
 * scenario fails (exit 1). Without a policy (`ctx.policy` undefined) nothing happens.
 *
 * The customer's messages are registered as they are sent, before any answer can repeat them
 * (other-customer-data). A conversation is keyed by its scenario and its first customer
 * message, so a scenario's repeats and modes are one customer, and each red-team attack
 * (one scenario, many first messages) its own.
 */
import type { ChatHistoryItem } from '../contract/index.js';
import type { PolicyFinding } from '../policy/index.js';
import { POLICY_RULES } from '../policy/index.js';
import type { ExpectationFailure } from '../scenario/index.js';
import type { ExecuteContext } from './context.js';
import type { RequestRecord } from './types.js';

/** What the policy reads of a turn: the customer's new message and the conversation before it. */
export interface PolicyTurn {
  humanMessage: string;
  chatHistory: readonly ChatHistoryItem[];
}

const humanTexts = (turn: PolicyTurn): string[] => [
  ...turn.chatHistory.filter((h) => h.type === 'human').map((h) => h.content),
  turn.humanMessage,
];

const conversationOf = (record: RequestRecord, texts: readonly string[]): string =>
  `${record.file}\u0000${record.scenario}\u0000${texts[0] ?? ''}`;

/** Registers the customer's messages of `turn` before it is sent. */
export function policySent(ctx: ExecuteContext, record: RequestRecord, turn: PolicyTurn): void {
  if (!ctx.policy) return;
  const texts = humanTexts(turn);
  ctx.policy.sent(conversationOf(record, texts), texts);
}

function failureOf(ctx: ExecuteContext, f: PolicyFinding): ExpectationFailure {
  const policy = ctx.policy!.policy;
  const key = POLICY_RULES.find((r) => r.id === f.rule)?.key;
  const location = (key && policy.locations[key]) || { file: policy.file, line: 1, col: 1 };
  const id = f.requestId ? `, ${f.requestId}` : '';
  return {
    path: f.field,
    matcher: `policy:${f.rule}`,
    expected: f.expected,
    actual: f.got,
    message: `policy ${f.rule} (turn ${f.turn}${id}): ${f.message}`,
    location,
  };
}

/**
 * Checks one answer payload (or a `send` reply) of `record` against the job's policy and returns
 * its violations as failures (none without a policy).
 */
export function policyFailures(
  ctx: ExecuteContext,
  record: RequestRecord,
  turn: PolicyTurn,
  payload: unknown,
): ExpectationFailure[] {
  if (!ctx.policy) return [];
  const texts = humanTexts(turn);
  const findings = ctx.policy.judge(payload, {
    conversation: conversationOf(record, texts),
    humanTexts: texts,
    scenario: record.scenario,
    turn: texts.length,
    ...(record.requestId !== undefined && { requestId: record.requestId }),
  });
  return findings.map((f) => failureOf(ctx, f));
}
