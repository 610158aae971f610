/**
 * The resolved scenario model the runner consumes (docs/architecture.md, Layout).
 * What the user wrote (`UserSuite`, inferred from the zod schema in `schema.ts`) is kept apart
 * from these resolved shapes: `normalise.ts` turns the one into the other.
 */
import type { ChatHistoryItem } from '../contract/index.js';
import type { SourceLocation } from '../errors.js';

export type { SourceLocation };

/** Which answer endpoint a scenario runs against: `get-droid-answer` (sync) or `-async` (spec 8, 9). */
export type AnswerMode = 'sync' | 'async';

/**
 * One matcher applied to one dotted path of the answer payload.
 * - `path`: dotted, numeric segments index arrays (`responses.0.kwargs.content`).
 * - `matcher`: a name from `MATCHER_NAMES` (`equals`, `contains`, ...).
 * - `expected`: the normalised expected value (plain data; for `json`, an `Expectation[]`).
 * - `location`: file:line:col of the matcher key (or of the path key for the scalar shorthand).
 * - `options`: matcher options, e.g. `{ ignoreCase: true }`, `{ flags: 'i' }`.
 */
export interface Expectation {
  path: string;
  matcher: string;
  expected: unknown;
  location: SourceLocation;
  options?: Record<string, unknown>;
}

/** The endpoints a `call` step may name (spec: Endpoints 1-7, 10). */
export type CallName = 'channels' | 'messages' | 'customer' | 'conversations' | 'ask' | 'send' | 'setBot' | 'imageAlt';

/** `capture: { name: path }`: after the step, `vars[name]` = the value at `path` of its response body. */
export interface Capture {
  name: string;
  path: string;
  location: SourceLocation;
}

/** Sender types that count as a `send` step's reply (MessageForwarding.type; never `human`). */
export type ReplySender = 'ai' | 'admin' | 'system' | 'log';

/**
 * `waitForReply` / `noReplyWithin` of a `send` step: a window from the step's start (ms) and
 * the sender types that count as the reply (default `['ai']`: the forwarded copy of the sent
 * message itself is `human` and never counts). Read through the receiver's message-forwarding
 * webhook (docs receiving-webhook.mdx).
 */
export interface ReplyWait {
  withinMs: number;
  from: ReplySender[];
  location: SourceLocation;
}

/**
 * `intentWebhook`: an intent webhook (docs intent-webhook.mdx) that must arrive within `withinMs`
 * of the droid's answer (arrivals count from the step's start); `expect` reads its body
 * (IntentWebhookRequest). An `equals` expectation on `intent` also selects the webhook waited for.
 */
export interface IntentWebhookExpectation {
  withinMs: number;
  expect: Expectation[];
  location: SourceLocation;
}

/** The longest pause `think:` may take (10 min): a longer one is a typo or a conversation resumed another day. */
export const MAX_THINK_MS = 600_000;

/**
 * `think:` the customer's pause before a step (docs/conversations.md), ms: a fixed pause, a
 * uniform one in [minMs, maxMs], or a lognormal one given by its median and 90th percentile
 * (samples capped at MAX_THINK_MS). Drawn with the seeded PRNG (src/random.ts).
 */
export type ThinkTime = (
  | { kind: 'fixed'; ms: number }
  | { kind: 'uniform'; minMs: number; maxMs: number }
  | { kind: 'lognormal'; medianMs: number; p90Ms: number }
) & { location: SourceLocation };

export interface StepBase {
  /** 0-based position in `Scenario.steps`. */
  index: number;
  /** Where the step's map starts. */
  location: SourceLocation;
  /** Checked against the response body (answer payload for `say`); values may hold `{{ vars.x }}`. */
  expect: Expectation[];
  /** From `latency: "< 100ms"`: this step's own latency limit, ms. */
  latencyMs?: { max: number; location: SourceLocation };
  capture: Capture[];
  /** `say`, or `send` with `waitForReply`: an intent webhook the answer must trigger. */
  intentWebhook?: IntentWebhookExpectation;
  /** `think:` the pause before this step (else the scenario's, for every `say` after the first). */
  think?: ThinkTime;
}

/**
 * An answer turn in the scenario's mode. History sent: the scenario's chatHistory, then every
 * earlier `say` and the actual answer to it. `text` may hold `{{ vars.x }}`.
 */
export interface SayStep extends StepBase {
  kind: 'say';
  text: string;
}

/**
 * A call of one endpoint. String fields may hold `{{ vars.x }}`. `status`: the non-2xx status
 * the call must answer (default: any 2xx).
 */
export interface CallStep extends StepBase {
  kind: 'call';
  call: CallName;
  customerId?: string | number;
  prompt?: string;
  humanMessage?: string;
  botEnabled?: boolean;
  imageUrl?: string;
  status?: number;
  /** `send` only: wait for the bot's reply; the body becomes `{ ...sendResponse, reply }`. */
  waitForReply?: ReplyWait;
  /** `send` only: nothing from `from` may arrive within the window (bot off, human takeover). */
  noReplyWithin?: ReplyWait;
}

/** Which answer of a burst its step's `expect` judges (docs/bursts.md). */
export const BURST_FINALS = ['last-delivered', 'last-message'] as const;
/**
 * - `last-delivered`: the answer that arrived last (the last thing the customer saw);
 * - `last-message`: the answer to the burst's last message, whenever it arrived.
 */
export type BurstFinal = (typeof BURST_FINALS)[number];

/** Most messages in one burst. */
export const MAX_BURST_MESSAGES = 20;

/** One message of a burst: its text (may hold `{{ vars.x }}`), what its own answer must hold. */
export interface BurstMessage {
  text: string;
  expect: Expectation[];
  /** `latency:` of the message, else of the step: the limit of its answer's latency. */
  latencyMs?: { max: number; location: SourceLocation };
  /** Where the message is written. */
  location: SourceLocation;
}

/**
 * `burst:` several customer messages sent `gapMs` apart without waiting for the answers, each
 * an answer turn in the scenario's mode (docs/bursts.md). Message k's history: the scenario's
 * chatHistory and earlier turns, then the burst's earlier messages and only the answers that
 * had arrived when it was sent, in the order they happened. The step's `expect` (StepBase) and
 * `capture` read the final state: the answer `final` names.
 */
export interface BurstStep extends StepBase {
  kind: 'burst';
  messages: BurstMessage[];
  gapMs: number;
  final: BurstFinal;
}

export type Step = SayStep | CallStep | BurstStep;

/** Every expectation list of a step: its own, and each burst message's. */
export function stepExpectations(step: Step): Expectation[][] {
  return step.kind === 'burst' ? [step.expect, ...step.messages.map((m) => m.expect)] : [step.expect];
}

/** Steps that are answer turns (a `say`, or the messages of a `burst`). */
export const isAnswerStep = (step: Step): step is SayStep | BurstStep => step.kind === 'say' || step.kind === 'burst';

/** A run's requirement over its repeats: a share of runs (0..1) or a count of passes. */
export type PassRequirement = { passRate: number } | { minPasses: number };

/**
 * `simulate:`: a model plays the customer with this persona and goal for up to `maxTurns`
 * lines (default 8), each an answer turn in the scenario's mode; `opening` is a fixed first
 * line. `expect` reads the last answer payload plus `transcript` and `turns`.
 */
interface SimulateSpec {
  persona: string;
  goal: string;
  maxTurns: number;
  opening?: string;
  /** Where `simulate:` is written. */
  location: SourceLocation;
}

export interface Scenario {
  suite: string;
  name: string;
  file: string;
  /** Where the scenario's map starts (its first key). */
  location: SourceLocation;
  tags: string[];
  /** `undefined` => the runner runs both modes. */
  modes: AnswerMode[] | undefined;
  chatHistory: ChatHistoryItem[];
  humanMessage: string;
  expect: Expectation[];
  /** From `latency: "< 180s"`: the limit in ms and where it was written. */
  latencyMs?: { max: number; location: SourceLocation };
  /** Present when the file wrote `simulate:` (then humanMessage is the opening or ""). */
  simulate?: SimulateSpec;
  /** Present when the file wrote `steps:` (then humanMessage is "" and expect is []). */
  steps?: Step[];
  /** Initial variables (`vars:`), for `{{ vars.name }}` in steps. */
  vars?: Record<string, string | number | boolean>;
  /** `think:` of the scenario: the pause before every `say` after the first that has no `think` of its own. */
  think?: ThinkTime;
  /** Runs per mode (the scenario's `repeat`, else the suite's); absent => 1. */
  repeat?: number;
  /** Required passes over the repeats (scenario's, else the suite's); absent => every run must pass. */
  requirement?: PassRequirement;
  /** Expected intents for the accuracy report (`intents:`), overriding those read from `expect`. */
  intents?: string[];
}

export interface Suite {
  name: string;
  file: string;
  scenarios: Scenario[];
  /** Suite `passRate`: share of all the suite's runs that must pass. */
  passRate?: number;
}

/**
 * A failed expectation. `actual` is the value found at `path` (`undefined` when missing);
 * `message` is one line, e.g. `intents: expected to include "refund", got ["greeting"]`.
 * The LLM-graded matchers (`similar`, `judge`) add `score` (0..1: the similarity, or the judge's
 * score) and, for `judge`, the judge's `reason`; every report shows them beside the failure.
 */
export interface ExpectationFailure {
  path: string;
  matcher: string;
  expected: unknown;
  actual?: unknown;
  message: string;
  location: SourceLocation;
  score?: number;
  reason?: string;
}
