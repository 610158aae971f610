/**
 * Ack-only execution (`--ack-only`): an async request ends at its acknowledgement and the
 * webhook is not awaited, to measure the capacity of the acknowledgement path alone
 * (DESIGN.md, load/: "autocannon on the acknowledgement path"). Sync requests run as usual.
 *
 * In an ack-only record `answered` means "acknowledged with a requestId" (spec 9: success and
 * a `tpa-` requestId within 100 ms); `ackMs` is measured from the (intended) start. The
 * service still delivers the webhooks; the receiver counts them as orphans.
 */
import { AbortedError, ApiError, ContractError, TimeoutError, isDroidcheckError } from '../errors.js';
import type { Outcome, RequestRecord } from '../runner/types.js';
import { executeRequest, type ExecuteContext } from '../runner/execute.js';
import type { PlannedRequest } from '../runner/plan.js';

const ENDPOINT = 'get-droid-answer-async';

function outcomeOf(err: unknown): Outcome {
  if (err instanceof ApiError) return 'rejected';
  if (err instanceof TimeoutError) return 'timeout';
  if (err instanceof AbortedError) return 'interrupted';
  return 'transport-error';
}

/**
 * Sends one request; async ones end at the acknowledgement. `intendedStart` is clock ms
 * (default: now). Never throws for the target's behaviour; records ack latency in `ctx.latency`.
 */
export async function executeAckOnly(planned: PlannedRequest, ctx: ExecuteContext, intendedStart?: number): Promise<RequestRecord> {
  if (planned.mode === 'sync') return executeRequest(planned, ctx, intendedStart);
  const start = intendedStart ?? ctx.clock.now();
  const { scenario } = planned;
  const record: RequestRecord = {
    seq: planned.seq,
    suite: scenario.suite,
    scenario: scenario.name,
    file: scenario.file,
    mode: 'async',
    outcome: 'interrupted',
    passed: false,
    startedAt: ctx.clock.wallNow().toISOString(),
    failures: [],
    contractViolations: [],
    unknownFields: [],
  };
  const signal = ctx.abortSignal;
  try {
    const body = { humanMessage: { content: scenario.humanMessage, type: 'human' as const }, chatHistory: scenario.chatHistory };
    const ack = await ctx.client.getDroidAnswerAsync(body, signal ? { signal } : {});
    const ackMs = ctx.clock.now() - start;
    record.ackMs = ackMs;
    record.httpStatus = ack.status;
    ctx.latency.recordMs('ack', ackMs);
    for (const v of ack.contract.violations) record.contractViolations.push({ endpoint: ENDPOINT, ...v });
    const id = (ack.body as { requestId?: unknown } | null)?.requestId;
    if (typeof id === 'string' && id.length > 0) {
      record.requestId = id;
      record.outcome = 'answered';
      record.passed = true;
    } else {
      record.outcome = 'transport-error';
      record.error = { code: ContractError.code, message: `${ENDPOINT} acknowledged without a requestId` };
    }
  } catch (err) {
    record.outcome = outcomeOf(err);
    if (err instanceof ApiError) record.httpStatus = err.status;
    if (err instanceof ContractError) for (const v of err.violations) record.contractViolations.push({ endpoint: ENDPOINT, ...v });
    record.error = isDroidcheckError(err)
      ? { code: err.code, message: err.message }
      : { code: 'DROIDCHECK_ERR_UNEXPECTED', message: err instanceof Error ? err.message : String(err) };
  }
  return record;
}
