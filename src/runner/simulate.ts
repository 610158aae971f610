/**
 * A `simulate:` scenario in the runner: a language model plays the customer (the injected
 * simulator; jobs/ builds it from src/llm's createSimulator) and each customer line goes to the
 * droid as one answer turn in the planned mode, through the same path as a `say` step
 * (answer-turn.ts: the latency goes into the run's histograms, an async turn's webhook is
 * matched by the receiver). The whole conversation is one record, like a scenario with `steps`:
 * one `say` step result per customer line, and `record.simulation` with the transcript and each
 * turn's latency.
 *
 * `expect` reads what the simulator hands back as `expectPayload` (the last answer payload plus
 * `transcript` and `turns`, docs/llm.md). How the conversation ended decides the record:
 * - `judge-error` (the model could not be reached): a judge error, never a pass;
 * - `droid-error`: the failed turn's outcome (timeout, HTTP error...), with its error;
 * - `aborted`: `interrupted`;
 * - otherwise the expectations decide (an empty model line ends the conversation early; the
 *   conversation so far is judged).
 * Never throws for the target's or the model's behaviour.
 */
import type { ChatHistoryItem } from '../contract/index.js';
import { AbortedError, InternalError, JudgeError } from '../errors.js';
import type { Outcome } from '../outcomes.js';
import { conversationTurn, type RequestRun } from './answer-turn.js';
import type { ExecuteContext } from './context.js';
import { codeContext, gradeScope, judgeAnswer, keepGrades } from './judge.js';
import type { CustomerAsk, CustomerSimulation } from './simulator-types.js';
import type { PlannedRequest, RecordError, RequestRecord, SimulationRecord } from './types.js';

/** The rejection of a turn the droid did not answer: carries the turn's outcome to the record. */
class TurnFailed extends Error {
  constructor(
    readonly outcome: Outcome,
    readonly recordError: RecordError | undefined,
  ) {
    super(recordError?.message ?? `the turn ended ${outcome}`);
  }
  get code(): string {
    return this.recordError?.code ?? 'DROIDCHECK_ERR_TURN';
  }
}

/** The ask of one simulated conversation: each line one answer turn into `record` (a `say` step each). */
function turnAsker(planned: PlannedRequest, ctx: ExecuteContext, start: number, record: RequestRecord): CustomerAsk {
  return async (turn) => {
    const index = record.steps!.length;
    const t0 = index === 0 ? start : ctx.clock.now();
    const chatHistory: ChatHistoryItem[] = turn.chatHistory.map((h) => ({ type: h.type, content: h.content }));
    const said = { humanMessage: turn.humanMessage, chatHistory, expect: [], location: planned.scenario.location };
    const { one, step } = await conversationTurn(planned.mode, said, ctx, t0, record, index);
    step.passed = one.outcome === 'answered' && one.failures.length === 0;
    // The turn had no expectations: its failures are the shop policy's violations.
    step.failures = one.failures;
    record.failures.push(...one.failures);
    record.steps!.push(step);
    if (one.outcome !== 'answered') throw new TurnFailed(one.outcome, one.error);
    return { payload: one.answer, latencyMs: step.latencyMs ?? 0 };
  };
}

/** The report's view of a conversation: each turn's lines and latency, how it ended. */
function simulationRecord(sim: CustomerSimulation): SimulationRecord {
  return {
    end: sim.end,
    turns: sim.turns.map((t) => ({ customer: t.customer, droid: t.droid, latencyMs: t.latencyMs })),
    transcript: sim.transcript,
    modelCalls: sim.calls,
    cacheHits: sim.cacheHits,
    promptTokens: sim.promptTokens,
    completionTokens: sim.completionTokens,
  };
}

/** Runs `planned.scenario.simulate` into `record` (see module docs). */
export const executeSimulation: RequestRun = async (planned, ctx, start, record) => {
  const spec = planned.scenario.simulate!;
  const simulator = ctx.simulator;
  if (!simulator)
    throw new InternalError(
      'a simulate: scenario reached the runner without a simulator (jobs/ refuses it before sending)',
    );
  record.steps = [];
  let failed: TurnFailed | undefined;
  const ask = turnAsker(planned, ctx, start, record);
  const sim = await simulator.simulate(
    {
      persona: spec.persona,
      goal: spec.goal,
      maxTurns: spec.maxTurns,
      ...(spec.opening !== undefined && { opening: spec.opening }),
    },
    (turn, signal) =>
      ask(turn, signal).catch((err: unknown) => {
        if (err instanceof TurnFailed) failed = err;
        throw err;
      }),
    ctx.abortSignal,
    gradeScope(record),
  );
  record.simulation = simulationRecord(sim);
  if (sim.lastPayload !== undefined) record.answer = sim.lastPayload;
  if (sim.end === 'aborted') {
    record.outcome = 'interrupted';
    record.error = { code: AbortedError.code, message: 'run interrupted during the simulated conversation' };
    return;
  }
  if (sim.end === 'droid-error') {
    record.outcome = failed?.outcome ?? 'failed';
    record.error = failed?.recordError ?? sim.error ?? { code: 'DROIDCHECK_ERR_TURN', message: 'a turn got no answer' };
    return;
  }
  record.outcome = 'answered';
  if (sim.end === 'judge-error' || sim.end === 'budget-spent') {
    // budget-spent: the conversation ended unfinished, so it is "not judged: budget spent" (DROIDCHECK_ERR_BUDGET).
    const e = sim.error ?? { code: JudgeError.code, message: 'the simulator model gave no customer line' };
    (record.judgeErrors ??= []).push({
      path: 'simulate',
      matcher: 'simulate',
      code: e.code,
      message: e.message,
      location: spec.location,
    });
    record.passed = false;
    return;
  }
  const last = sim.turns.at(-1);
  const grounding = last
    ? {
        humanMessage: last.customer,
        chatHistory: sim.turns.slice(0, -1).flatMap((t): ChatHistoryItem[] => [
          { type: 'human', content: t.customer },
          { type: 'ai', content: t.droid },
        ]),
      }
    : undefined;
  const ev = await judgeAnswer(planned.scenario.expect, sim.expectPayload, grounding, ctx, record, () =>
    codeContext(record, planned.scenario.vars, Math.max(0, sim.turns.length - 1)),
  );
  record.failures.push(...ev.failures);
  keepGrades(record, ev);
  record.passed = record.failures.length === 0 && record.judgeErrors === undefined;
};
