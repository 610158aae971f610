/**
 * What executing one request needs (runner/execute.ts, answer-turn.ts, steps.ts): the client,
 * the receiver, the clock, the deadline, where latencies go, the run-wide signals and notes.
 */
import type { DroidClient } from '../client/index.js';
import type { RetryPolicy } from '../client/retry.js';
import type { Clock } from '../clock.js';
import type { CoverageRecorder } from '../coverage/index.js';
import type { LatencyMetric } from '../metrics/index.js';
import type { PolicyJudge } from '../policy/index.js';
import type { DeliverySource } from '../receiver/index.js';
import type { ExpectationGrader } from '../scenario/index.js';
import type { ContractNotes } from './contract-notes.js';
import type { CustomerSimulator } from './simulator-types.js';
import type { RequestTracer } from './trace.js';

/**
 * Where a remote target must post its webhooks, as the user configures them in the service (the
 * public URLs behind a tunnel), for the sentences of the early stops (answer-turn.ts,
 * step-waits.ts, wiring-stop.ts).
 */
export interface WebhookSetup {
  /** Where answers must go: the `/webhook` URL, or `droidcheck receive` with `--deliveries`. */
  answer: string;
  /** Where forwarded messages must go: the `/messages` URL. */
  messages: string;
  /** The droid under test: answer webhooks naming another one are a wiring mistake (wiring-stop.ts). */
  droidId?: number | string;
  /** Webhooks reach this run through `droidcheck receive` (--deliveries), which checks their secret. */
  relay?: boolean;
}

/** Where an executed request's latencies go (ms); the engine's measured or warm-up recorder. */
export interface LatencySink {
  recordMs(metric: LatencyMetric, ms: number): void;
  /** Also records answer turn `turn` (1-based) of a conversation (report `byTurn`); absent: not kept. */
  recordTurnMs?(turn: number, metric: LatencyMetric, ms: number): void;
  /** A conversation (a steps scenario with `say` turns) began (+1) or ended (-1): the timeline's open conversations. */
  conversation?(delta: 1 | -1): void;
}

/**
 * How each request of a job is sent and judged: what a job passes the engine (EngineOptions)
 * and the engine hands every request (ExecuteContext), declared once.
 */
export interface RequestOptions {
  client: DroidClient;
  /** Required for async requests (unless `ackOnly`). */
  receiver?: DeliverySource | undefined;
  /** Deadline for the sync answer and for the webhook, ms from the (intended) start (spec: Limits, 180 s). */
  timeoutMs: number;
  /** Cancels in-flight work (grace over, second SIGINT); the request then ends `interrupted`. */
  abortSignal?: AbortSignal | undefined;
  /** Opt-in retry of 429/5xx on the answer submit (client/retry.ts); undefined = no retry. */
  retry?: RetryPolicy | undefined;
  /** Async requests end at the acknowledgement (`--ack-only`): the webhook is not awaited, expectations not judged. */
  ackOnly?: boolean;
  /** Grades `similar` and `judge` expectations (src/llm); undefined when no suite uses them. */
  grader?: ExpectationGrader | undefined;
  /** Leave `similar`/`judge` ungraded (load and capacity: no LLM call per request). */
  skipGraded?: boolean;
  /** Plays the customer of `simulate:` scenarios (src/llm's simulator, wrapped by jobs/; runner/simulate.ts); undefined when no suite simulates. */
  simulator?: CustomerSimulator | undefined;
  /**
   * The network round trip to a remote target, ms (jobs/pipeline/network.ts); when set, every async
   * acknowledgement also records `ackServer` = ack - rttMs. Undefined for the embedded emulator.
   */
  rttMs?: number | undefined;
  /**
   * A remote target's webhook URLs (undefined for the embedded emulator, which droidcheck wires
   * itself). When set, an async answer that passes its deadline while nothing at all has reached
   * the receiver ends with cause NO_DELIVERY_CAUSE (setup-breaker.ts), which stops the run.
   */
  webhooks?: WebhookSetup | undefined;
  /**
   * How long the first `send` that waits for the bot's reply waits for any forwarded message of
   * its customer (its own echo included) before every reply wait fails at once, ms
   * (step-waits.ts). Default src/defaults.ts JOB_DEFAULTS (the table's default of the option).
   */
  messageWebhookCheckMs?: number | undefined;
  /**
   * The shop policy every answer is checked against (src/policy, runner/turn-checks.ts): a
   * violation is a failure of its request. Undefined: no policy file, nothing checked.
   */
  policy?: PolicyJudge | undefined;
  /**
   * What the job covered (src/coverage, runner/turn-checks.ts): every customer turn and answer
   * is counted in it; it fails nothing. Undefined: not counted.
   */
  coverage?: CoverageRecorder | undefined;
  /**
   * The trace of each request (runner/trace.ts): W3C Trace Context headers on every call to the
   * service and, when export is on, spans. Undefined (`--no-trace-context`): no header.
   */
  tracer?: RequestTracer | undefined;
  /** False (`--no-trace-context`): the tracer's spans are kept, but no call carries their headers. Default true. */
  traceContext?: boolean | undefined;
}

/** What executing one request needs: the job's request options, and the engine's clock, latency sink and notes. */
export interface ExecuteContext extends RequestOptions {
  clock: Clock;
  latency: LatencySink;
  /** Run-level notes (unverified shapes, unknown fields), at most one per endpoint. */
  notes?: ContractNotes | undefined;
  /**
   * Why the set-up breaker stopped the run, once it did on the receiver's word (wiring-stop.ts):
   * an answer wait it cut short records this instead of "run interrupted". Undefined otherwise.
   */
  stopReason?: (() => string | undefined) | undefined;
  /** Called when an async request was acknowledged with a requestId (the engine's first-answer watch: first-answer.ts). */
  onAcknowledged?: (() => void) | undefined;
}
