/**
 * Runs the `steps` of one scenario for one mode (steps call any endpoint; docs/steps.md), feeding
 * one `RequestRecord` with a `StepResult` per step run.
 *
 * - `say`: an answer turn in the planned mode (answer-turn.ts: same timing and latency metrics
 *   as a plain scenario; the first step starts at the request's (intended) start). History
 *   sent: the scenario's chatHistory, then each earlier `say` and the answer it got.
 * - `call`: one DroidClient method (spec: Endpoints 1-7, 10); latency from the step's start to
 *   the complete response, ms. A non-2xx answer fails the step unless `status` names it.
 * - `send` with `waitForReply` / `noReplyWithin` (step-waits.ts): the body its expectations and
 *   captures see is `{ ...sendResponse, reply }`, `reply` the MessageForwarding body of the
 *   bot's reply or null; with `waitForReply` the step's latency runs to the reply's arrival
 *   (metric `reply`). Without a reply, `reply.*` expectations are not judged: the one failure
 *   "no reply within ..." stands for them.
 * - `intentWebhook` (on `say`, or `send` with a reply): after the step's expectations and
 *   captures, the intent webhook is awaited and its expectations judged (failures prefixed
 *   "intent webhook:", paths `intentWebhook.<path>`). Not awaited under `--ack-only`.
 * - `think:` (think.ts, docs/conversations.md): the customer's pause before a step, waited here;
 *   the step is measured from the pause's end, so no latency holds it. The N-th `say` is turn N:
 *   its ack/answer/sync also go to the sink's per-turn figures (`recordTurnMs`, report `byTurn`).
 * - Templates `{{ vars.name }}` are rendered with `vars:` and earlier captures; `capture`
 *   stores values of the response body after the step.
 * - Contract violations and unknown fields of every response go to the record (own category).
 * - The scenario stops at the first step without a usable response (error outcome, or a
 *   capture that found nothing); the record then takes that step's outcome. Otherwise the
 *   record is `answered`, and passes when every step passed.
 * Never throws for the target's behaviour.
 */
import type { ClientResponse } from '../client/index.js';
import type { ChatHistoryItem, EndpointName, MessageForwarding } from '../contract/index.js';
import { ApiError, ContractError, isDroidcheckError } from '../errors.js';
import {
  isAnswerStep,
  renderExpectations,
  renderTemplate,
  renderText,
  valueAtPath,
  type BurstStep,
  type CallStep,
  type Expectation,
  type ExpectationFailure,
  type SayStep,
  type Step,
} from '../scenario/index.js';
import { conversationTurn, latencyFailure, turnSink, type RequestRun } from './answer-turn.js';
import { runBurst, type JudgeFinal } from './burst.js';
import type { ExecuteContext } from './context.js';
import { addContract } from './contract-notes.js';
import { codeContext, judgeAnswer, keepGrades } from './judge.js';
import { answerChecks, turnSent } from './turn-checks.js';
import { outcomeOf, recordErrorOf } from './settle.js';
import { awaitIntentWebhook, awaitNoReply, awaitReply } from './step-waits.js';
import { pause, sampleThinkMs, thinkOf, thinkRandom } from './think.js';
import { traceOf, type CallTrace } from './trace.js';
import type { PlannedRequest, RequestRecord, StepResult } from './types.js';

/** Spec endpoint name of each call (the client's names, used in contract records). */
export const CALL_ENDPOINTS: Record<CallStep['call'], EndpointName> = {
  channels: 'channels',
  messages: 'messages',
  customer: 'customer',
  conversations: 'conversations',
  ask: 'ask',
  send: 'send',
  setBot: 'customer-update',
  imageAlt: 'get-image-alt',
};

/** The HTTP method and route of each call (spec: Endpoints 1-7, 10), for its trace. */
const CALL_ROUTES: Record<CallStep['call'], ['GET' | 'POST', string]> = {
  channels: ['GET', '/channels'],
  messages: ['GET', '/messages/{customerId}'],
  customer: ['GET', '/customer/{customerId}'],
  conversations: ['GET', '/customer/{customerId}/conversations'],
  ask: ['POST', '/customer/{customerId}/ask'],
  send: ['POST', '/send'],
  setBot: ['POST', '/customer/{customerId}'],
  imageAlt: ['POST', '/get-image-alt'],
};

type Vars = Record<string, unknown>;

function customerIdOf(step: CallStep, vars: Vars): string | number {
  const v = typeof step.customerId === 'string' ? renderTemplate(step.customerId, vars) : step.customerId;
  if (typeof v === 'string' && /^\d{1,15}$/.test(v)) return Number(v);
  return typeof v === 'number' ? v : String(v ?? '');
}

function invoke(
  step: CallStep,
  vars: Vars,
  ctx: ExecuteContext,
  call: CallTrace | undefined,
): Promise<ClientResponse<unknown>> {
  const c = ctx.client;
  const opts = {
    ...(ctx.abortSignal && { signal: ctx.abortSignal }),
    ...(call && ctx.traceContext !== false && { trace: call.headers }),
  };
  const text = (s: string | undefined): string => renderText(s ?? '', vars);
  switch (step.call) {
    case 'channels':
      return c.channels(opts);
    case 'messages':
    case 'customer':
    case 'conversations':
      return c[step.call](customerIdOf(step, vars), opts);
    case 'ask':
      return c.ask(customerIdOf(step, vars), text(step.prompt), opts);
    case 'send':
      return c.send({ customerId: customerIdOf(step, vars), humanMessage: text(step.humanMessage) }, opts);
    case 'setBot':
      return c.setBot(customerIdOf(step, vars), step.botEnabled ?? true, opts);
    case 'imageAlt':
      return c.imageAlt(text(step.imageUrl), opts);
  }
}

type Turn = { humanMessage: string; chatHistory: ChatHistoryItem[] };

/** A step's result, and whether the scenario goes on to the next step. */
type StepEnd = { result: StepResult; proceed: boolean };

/**
 * Checks the expectations (templates rendered), latency and captures of a step's response.
 * `expect` overrides the step's own (a send without its reply leaves out `reply.*`); `answered`
 * is the record of the answer turn whose answer `body` is (its grades hang under that turn).
 */
async function judgeStep(
  step: Step,
  result: StepResult,
  body: unknown,
  vars: Vars,
  ctx: ExecuteContext,
  record: RequestRecord,
  turn?: Turn,
  expect: readonly Expectation[] = step.expect,
  answered?: RequestRecord,
): Promise<boolean> {
  result.body = body;
  const ev = await judgeAnswer(
    renderExpectations(expect, vars),
    body,
    turn,
    ctx,
    record,
    () => codeContext(record, vars, step.index),
    answered,
  );
  result.failures.push(...ev.failures);
  keepGrades(record, ev, `step ${step.index + 1} (${result.kind}): `);
  if (ev.judgeErrors.length > 0) result.judgeErrors = ev.judgeErrors.length;
  if (result.latencyMs !== undefined) result.failures.push(...latencyFailure(step.latencyMs, result.latencyMs));
  let captureOk = true;
  for (const cap of step.capture) {
    const value = valueAtPath(body, cap.path);
    if (value === undefined) {
      captureOk = false;
      result.failures.push({
        path: cap.path,
        matcher: 'capture',
        expected: 'a value to capture',
        actual: undefined,
        message: `capture ${cap.name}: nothing at "${cap.path}"`,
        location: cap.location,
      });
      continue;
    }
    vars[cap.name] = value;
    (result.captured ??= {})[cap.name] = value;
  }
  result.passed = result.failures.length === 0 && result.judgeErrors === undefined;
  return captureOk;
}

const interrupted = (result: StepResult, what: string): StepEnd => {
  result.outcome = 'interrupted';
  result.error = { code: 'DROIDCHECK_ERR_ABORTED', message: `run interrupted while waiting for ${what}` };
  return { result, proceed: false };
};

/**
 * After the expectations of a step whose droid answered: awaits its intent webhook and judges
 * it into `result` (see module docs). `answeredAt`: when the answer (or reply) arrived, clock ms;
 * `proceed`: what the step's own judging said (an interrupted wait stops the scenario).
 */
async function judgeIntentWebhook(
  step: Step,
  result: StepResult,
  vars: Vars,
  ctx: ExecuteContext,
  record: RequestRecord,
  stepStart: number,
  answeredAt: number,
  preferMids: string[],
  proceed: boolean,
): Promise<StepEnd> {
  const hook = step.intentWebhook;
  if (!hook) return { result, proceed };
  const expect = renderExpectations(hook.expect, vars);
  const named = expect.find(
    (e) => e.path === 'intent' && e.matcher === 'equals' && typeof e.expected === 'string' && !e.options?.ignoreCase,
  );
  const end = await awaitIntentWebhook(
    {
      intent: named?.expected as string | undefined,
      preferMids,
      after: stepStart,
      answeredAt,
      withinMs: hook.withinMs,
      location: hook.location,
    },
    ctx,
  );
  if (end.interrupted) return interrupted(result, 'the intent webhook');
  if (end.failure) result.failures.push(end.failure);
  if (end.payload !== null) {
    if (end.contract) addContract(record, 'intent-webhook', end.contract, ctx.notes, undefined, end.payload);
    const ev = await judgeAnswer(expect, end.payload, undefined, ctx, record, () =>
      codeContext(record, vars, step.index),
    );
    result.failures.push(
      ...ev.failures.map((f) => ({ ...f, path: `intentWebhook.${f.path}`, message: `intent webhook: ${f.message}` })),
    );
    keepGrades(record, ev, `step ${step.index + 1} (${result.kind}) intent webhook: `);
    if (ev.judgeErrors.length > 0) result.judgeErrors = (result.judgeErrors ?? 0) + ev.judgeErrors.length;
  }
  result.passed = result.failures.length === 0 && result.judgeErrors === undefined;
  return { result, proceed };
}

/** The send body with the reply: `{ ...sendResponse, reply }` (a non-object response gives `{ reply }`). */
function withReply(body: unknown, reply: MessageForwarding | null): Record<string, unknown> {
  const base =
    body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  return { ...base, reply };
}

/** A `send` that waits for the reply (or its absence), judged; the response `res` already arrived. */
async function judgeSendWithReply(
  step: CallStep,
  result: StepResult,
  body: unknown,
  ctx: ExecuteContext,
  record: RequestRecord,
  vars: Vars,
  t0: number,
): Promise<StepEnd> {
  const customerId = customerIdOf(step, vars);
  const end = step.waitForReply
    ? await awaitReply(step.waitForReply, customerId, t0, ctx)
    : await awaitNoReply(step.noReplyWithin!, customerId, t0, ctx);
  if (end.interrupted) return interrupted(result, step.waitForReply ? 'the reply' : 'the end of noReplyWithin');
  if (end.contract && end.payload)
    addContract(record, 'message-webhook', end.contract, ctx.notes, undefined, end.payload);
  if (step.waitForReply && end.receivedAt !== undefined) {
    result.latencyMs = end.receivedAt - t0;
    ctx.latency.recordMs('reply', result.latencyMs);
  }
  if (end.failure) result.failures.push(end.failure);
  if (end.payload) {
    // The bot's reply is an answer too: the shop policy judges it like any other.
    const sent = { humanMessage: renderText(step.humanMessage ?? '', vars), chatHistory: [], location: step.location };
    turnSent(ctx, record, sent);
    result.failures.push(...answerChecks(ctx, record, sent, end.payload));
  }
  const expect =
    step.waitForReply && end.payload === null
      ? step.expect.filter((e) => e.path !== 'reply' && !e.path.startsWith('reply.'))
      : step.expect;
  const proceed = await judgeStep(step, result, withReply(body, end.payload), vars, ctx, record, undefined, expect);
  if (!step.waitForReply || end.receivedAt === undefined || !end.payload) return { result, proceed };
  const mids = [end.payload.mid, (body as { mid?: unknown } | null)?.mid].filter(
    (m): m is string => typeof m === 'string',
  );
  return judgeIntentWebhook(step, result, vars, ctx, record, t0, end.receivedAt, mids, proceed);
}

/** The failure of a call answered HTTP `got` where the step names its `status`. */
const statusFailure = (step: CallStep, got: number): ExpectationFailure => ({
  path: 'status',
  matcher: 'equals',
  expected: step.status,
  actual: got,
  message: `status: expected HTTP ${step.status}, got ${got}`,
  location: step.location,
});

async function runCall(
  step: CallStep,
  ctx: ExecuteContext,
  record: RequestRecord,
  vars: Vars,
  t0: number,
): Promise<StepEnd> {
  const endpoint = CALL_ENDPOINTS[step.call];
  const result: StepResult = {
    index: step.index,
    kind: step.call,
    endpoint,
    outcome: 'answered',
    passed: false,
    failures: [],
  };
  const call = traceOf(record)?.call(endpoint, ...CALL_ROUTES[step.call]);
  try {
    const res = await invoke(step, vars, ctx, call);
    call?.end(res.status);
    result.latencyMs = ctx.clock.now() - t0;
    result.httpStatus = res.status;
    addContract(record, endpoint, res.contract, ctx.notes, res.headers, res.body);
    if (step.status !== undefined) {
      result.failures.push(statusFailure(step, res.status));
    } else if (step.waitForReply || step.noReplyWithin) {
      return await judgeSendWithReply(step, result, res.body, ctx, record, vars, t0);
    }
    return { result, proceed: await judgeStep(step, result, res.body, vars, ctx, record) };
  } catch (err) {
    call?.end(err instanceof ApiError ? err.status : undefined, isDroidcheckError(err) ? err.code : 'error');
    result.latencyMs = ctx.clock.now() - t0;
    if (err instanceof ApiError && err.status === step.status) {
      result.httpStatus = err.status;
      if (err.error === undefined || err.apiMessage === undefined) {
        record.contractViolations.push({
          endpoint,
          path: '(body)',
          message: 'an error body should be {error, message} (spec: Errors)',
          value: err.bodyExcerpt,
        });
      }
      const body = { error: err.error, message: err.apiMessage };
      return { result, proceed: await judgeStep(step, result, body, vars, ctx, record) };
    }
    result.outcome = outcomeOf(err);
    if (err instanceof ApiError) result.httpStatus = err.status;
    if (err instanceof ContractError)
      for (const v of err.violations) record.contractViolations.push({ endpoint, ...v });
    result.error = recordErrorOf(err);
    if (step.status !== undefined && err instanceof ApiError) result.failures.push(statusFailure(step, err.status));
    return { result, proceed: false };
  }
}

/** `turnNo`: 1-based number of this answer turn among the scenario's `say` steps. */
async function runSay(
  step: SayStep,
  planned: PlannedRequest,
  ctx: ExecuteContext,
  start: number,
  record: RequestRecord,
  vars: Vars,
  history: ChatHistoryItem[],
  turnNo: number,
): Promise<StepEnd> {
  const text = renderText(step.text, vars);
  const { one: turn, step: result } = await conversationTurn(
    planned.mode,
    { humanMessage: text, chatHistory: [...history], expect: [], location: step.location },
    { ...ctx, latency: turnSink(ctx.latency, turnNo) },
    start,
    record,
    step.index,
  );
  const latency = result.latencyMs;
  if (turn.answer !== undefined) record.answer = turn.answer;
  if (turn.outcome !== 'answered') {
    if (turn.answer !== undefined) result.body = turn.answer;
    return { result, proceed: false };
  }
  // The turn's own failures are the shop policy's violations (it had no expectations).
  result.failures.push(...turn.failures);
  const proceed = await judgeStep(
    step,
    result,
    turn.answer,
    vars,
    ctx,
    record,
    { humanMessage: text, chatHistory: history },
    step.expect,
    turn,
  );
  const answerText = (turn.answer as { answer?: unknown } | null)?.answer;
  history.push(
    { type: 'human', content: text },
    { type: 'ai', content: typeof answerText === 'string' ? answerText : '' },
  );
  if (!step.intentWebhook || latency === undefined || ctx.ackOnly) return { result, proceed };
  const mids = turn.requestId !== undefined ? [turn.requestId] : [];
  return judgeIntentWebhook(step, result, vars, ctx, record, start, start + latency, mids, proceed);
}

/**
 * How a burst's final state is judged: the step's `expect` and `capture` (judgeStep) on the
 * chosen answer, each failure prefixed with what was judged (burst.ts names both answers).
 */
function finalJudge(step: BurstStep, ctx: ExecuteContext, record: RequestRecord, vars: Vars): JudgeFinal {
  return async (result, body, turn, label, answered) => {
    const from = result.failures.length;
    const proceed = await judgeStep(step, result, body, vars, ctx, record, turn, step.expect, answered);
    for (let i = from; i < result.failures.length; i++) {
      const f = result.failures[i]!;
      result.failures[i] = { ...f, message: `${label}: ${f.message}` };
    }
    return proceed;
  };
}

const prefix =
  (r: StepResult) =>
  (f: ExpectationFailure): ExpectationFailure => ({ ...f, message: `step ${r.index + 1} (${r.kind}): ${f.message}` });

/**
 * Runs `planned.scenario.steps` in order into `record` (see module docs). A scenario with `say`
 * steps is a conversation: counted open on the sink while it runs, its pauses (`think:`,
 * think.ts) waited before their steps, each step after a pause measured from the pause's end.
 */
export const executeSteps: RequestRun = async (planned, ctx, start, record) => {
  const steps = planned.scenario.steps ?? [];
  const conversation = steps.some(isAnswerStep);
  if (conversation) ctx.latency.conversation?.(1);
  try {
    await runSteps(planned, ctx, start, record);
  } finally {
    if (conversation) ctx.latency.conversation?.(-1);
  }
};

/**
 * Waits the pause before `step` when one applies. Returns the step's start (clock ms: the pause's
 * end, or now without a pause); undefined for the first step without a pause (it starts at
 * `start`) and when interrupted during the pause.
 */
async function thinkBefore(
  step: Step,
  planned: PlannedRequest,
  ctx: ExecuteContext,
  start: number,
  turns: number,
  state: { random?: () => number },
): Promise<number | undefined> {
  const think = thinkOf(step, planned.scenario, turns === 0);
  if (!think && step.index === 0) return undefined;
  // The pause runs from the end of the previous step (the first step: from the intended start).
  const from = step.index === 0 ? start : ctx.clock.now();
  if (!think) return from;
  const until = from + sampleThinkMs(think, (state.random ??= thinkRandom(planned.seq)));
  return (await pause(ctx.clock, until - ctx.clock.now(), ctx.abortSignal)) ? until : undefined;
}

const runSteps: RequestRun = async (planned, ctx, start, record) => {
  const steps = planned.scenario.steps ?? [];
  const vars: Vars = { ...(planned.scenario.vars ?? {}) };
  const history: ChatHistoryItem[] = [...planned.scenario.chatHistory];
  const state: { random?: () => number } = {};
  let turns = 0;
  record.steps = [];
  record.outcome = 'answered';
  for (const step of steps) {
    const thought = ctx.abortSignal?.aborted ? undefined : await thinkBefore(step, planned, ctx, start, turns, state);
    if (ctx.abortSignal?.aborted) {
      record.outcome = 'interrupted';
      record.error = { code: 'DROIDCHECK_ERR_ABORTED', message: `run interrupted before step ${step.index + 1}` };
      break;
    }
    // The first step starts at the request's (intended) start, unless it had a pause of its own.
    const stepStart = thought ?? start;
    const { result, proceed } =
      step.kind === 'say'
        ? await runSay(step, planned, ctx, stepStart, record, vars, history, ++turns)
        : step.kind === 'burst'
          ? await runBurst(
              step,
              planned,
              ctx,
              stepStart,
              record,
              vars,
              history,
              turns + 1,
              finalJudge(step, ctx, record, vars),
            )
          : await runCall(step, ctx, record, vars, stepStart);
    if (step.kind === 'burst') turns += step.messages.length;
    record.steps.push(result);
    record.failures.push(...result.failures.map(prefix(result)));
    if (result.outcome !== 'answered') {
      record.outcome = result.outcome;
      record.error = result.error ?? {
        code: 'DROIDCHECK_ERR_STEP',
        message: `step ${step.index + 1} (${result.kind}) ended ${result.outcome}`,
      };
      if (result.httpStatus !== undefined) record.httpStatus = result.httpStatus;
    }
    if (!proceed) break;
  }
  record.passed =
    record.outcome === 'answered' && record.steps.length === steps.length && record.steps.every((s) => s.passed);
};
