/**
 * The simulated customer: a language model plays a customer with a persona and a goal against
 * the droid, turn by turn, until it says it is done or the turn budget runs out. It finds what a
 * written-down conversation misses: the customer who phrases an order their own way over five
 * turns.
 *
 * The model sees the conversation from the customer's side (a role swap): the persona and goal
 * are its system message, its own earlier lines are `assistant` messages and the droid's answers
 * are `user` messages. It ends the conversation by answering exactly `###STOP###` (the marker
 * promptfoo's simulated-user provider uses); the conversation also ends after `maxTurns`
 * customer lines. A fixed `opening` is sent as the first line without asking the model.
 *
 * Each customer line is cached like a judge verdict (cache kind `simulator`), keyed by the prompt
 * version, the model, the persona, the goal and the conversation so far: a re-run against a droid
 * whose answers have not changed replays the whole conversation without a single model call.
 *
 * An empty line from the model (some local models answer nothing now and then) is asked once
 * more; a second empty line ends the conversation as if the customer had stopped (`end:
 * 'empty'`), never as an error of the run: the conversation so far is still judged.
 *
 * `simulate()` never rejects: a model that cannot be reached ends the conversation with
 * `end: 'judge-error'` (DROIDCHECK_ERR_JUDGE: never a pass), a droid that fails with
 * `end: 'droid-error'` carrying the error's code and message.
 */
import type { LlmCache } from './cache.js';
import { cacheKey, NO_CACHE } from './cache.js';
import type { ChatMessage, LlmProvider } from './provider.js';
import { AbortedError, BudgetError, JudgeError } from '../errors.js';
import type { ModelCallScope } from './types.js';
import { createRedactor } from '../redact.js';

/** Bump when the customer's prompt changes: cached lines of another prompt are not replayed. */
const SIMULATOR_PROMPT_VERSION = 1;
/** What the model answers to end the conversation. */
const STOP_MARKER = '###STOP###';

/** `simulate:` of a scenario. */
interface SimulateSpec {
  /** Who the customer is ("a busy parent who writes short messages in Thai"). */
  persona: string;
  /** What they want to get done ("buy two Oxford shirts delivered to Chiang Mai"). */
  goal: string;
  /** Customer lines at most (each one answer turn). */
  maxTurns: number;
  /** A fixed first customer line, sent without asking the model. */
  opening?: string | undefined;
}

/**
 * One chat history item as the answer endpoints take it (spec: Chat history item). A type, not
 * an interface: it must fit the contract's loose ChatHistoryItem (which has an index signature).
 */
type SimChatItem = {
  type: 'human' | 'ai';
  content: string;
};

/** One answer turn of the droid: its payload and how long it took (ms, measured by the caller). */
interface DroidTurn {
  payload: unknown;
  latencyMs: number;
}

/**
 * Sends one customer line with the conversation so far to the droid (sync get-droid-answer, or
 * async + webhook) and resolves its answer payload. Rejects with the target's error (a
 * DroidcheckError with a `code`) when no answer came.
 */
type AskDroid = (
  turn: { chatHistory: SimChatItem[]; humanMessage: string },
  signal?: AbortSignal,
) => Promise<DroidTurn>;

interface SimulatedTurn {
  customer: string;
  /** The droid's answer text ("" when the payload held none). */
  droid: string;
  payload: unknown;
  /** The droid's answer time, ms. */
  latencyMs: number;
  /** The customer line came from the cache or `opening` (no model call). */
  cached: boolean;
}

/**
 * How a conversation ended: `stop` (the customer said ###STOP###), `max-turns`, `empty` (the
 * model answered nothing twice), `token-limit` (its model calls used `maxTokens`: judged on what
 * was said), `budget-spent` (the run's budget of model calls ran out: not judged, never a pass),
 * `judge-error` (the model failed: no verdict, never a pass), `droid-error` (the target failed a
 * turn) or `aborted` (the run was interrupted).
 */
type SimulationEnd =
  | 'stop'
  | 'max-turns'
  | 'empty'
  | 'token-limit'
  | 'budget-spent'
  | 'judge-error'
  | 'droid-error'
  | 'aborted';

export interface Simulation {
  turns: SimulatedTurn[];
  end: SimulationEnd;
  /** With `judge-error`, `droid-error`, `aborted`: the error's code and message (no secret in it). */
  error?: { code: string; message: string };
  /** `customer: ...` / `droid: ...` lines, one per line said. */
  transcript: string;
  /** The last answer payload (undefined when no turn was answered). */
  lastPayload: unknown;
  /** Chat calls made to the model (0: the whole conversation replayed from the cache). */
  calls: number;
  /** Customer lines taken from the cache. */
  cacheHits: number;
  /** Tokens the model's calls used, as the endpoint reported them. */
  promptTokens: number;
  completionTokens: number;
}

export interface SimulatorOptions {
  provider: LlmProvider;
  /** The model that plays the customer (`--simulator-model`, default the judge model). */
  model: string;
  /** Default: no cache. */
  cache?: LlmCache;
  /** Secrets to scrub from error messages (the API key). */
  secrets?: readonly string[];
  /** Tokens one conversation's model calls may use (`--max-conversation-tokens`); then it ends `token-limit`. */
  maxTokens?: number | undefined;
}

export interface Simulator {
  simulate(spec: SimulateSpec, ask: AskDroid, signal?: AbortSignal, scope?: ModelCallScope): Promise<Simulation>;
}

/** The system message: who the model plays and how it ends. */
function customerSystemPrompt(spec: Pick<SimulateSpec, 'persona' | 'goal'>): string {
  return [
    "You are role-playing a customer who is chatting with a shop's sales assistant (a chatbot).",
    `Who you are: ${spec.persona}`,
    `What you want: ${spec.goal}`,
    "Write only your next message to the assistant, as this customer would type it: short, natural, in your own words. Never write the assistant's part, never explain yourself, never break character.",
    `When your goal is reached, or clearly cannot be reached, answer exactly ${STOP_MARKER} and nothing else.`,
  ].join('\n');
}

/** Asked when the conversation has no line yet (some endpoints refuse a system message alone). */
const START = '(The assistant is waiting for your first message. Write it now.)';

/** The model's view: customer lines as `assistant`, droid answers as `user` (the role swap). */
function customerMessages(
  spec: Pick<SimulateSpec, 'persona' | 'goal'>,
  turns: readonly { customer: string; droid: string }[],
): ChatMessage[] {
  const messages: ChatMessage[] = [{ role: 'system', content: customerSystemPrompt(spec) }];
  if (turns.length === 0) messages.push({ role: 'user', content: START });
  for (const t of turns) {
    messages.push({ role: 'assistant', content: t.customer });
    messages.push({ role: 'user', content: t.droid });
  }
  return messages;
}

const oneLine = (text: string): string => text.replace(/\s*\n\s*/g, ' ').trim();

/** `customer: ...` / `droid: ...`, one line each (newlines inside a text become spaces). */
function formatTranscript(turns: readonly { customer: string; droid?: string | undefined }[]): string {
  const lines: string[] = [];
  for (const t of turns) {
    lines.push(`customer: ${oneLine(t.customer)}`);
    if (t.droid !== undefined) lines.push(`droid: ${oneLine(t.droid)}`);
  }
  return lines.join('\n');
}

/**
 * The droid's answer text of a payload: `answer`, else the `responses` paragraphs
 * (`kwargs.content`) joined by a blank line; "" when neither is there.
 */
export function answerTextOf(payload: unknown): string {
  if (payload === null || typeof payload !== 'object') return '';
  const p = payload as { answer?: unknown; responses?: unknown };
  if (typeof p.answer === 'string' && p.answer.trim() !== '') return p.answer;
  if (Array.isArray(p.responses)) {
    const parts = p.responses
      .map((r) => (r as { kwargs?: { content?: unknown } } | null)?.kwargs?.content)
      .filter((c): c is string => typeof c === 'string');
    return parts.join('\n\n');
  }
  return '';
}

/**
 * What a simulated scenario's `expect` reads: the last answer payload's fields, plus
 * `transcript` (the conversation as `customer:`/`droid:` lines) and `turns` (customer lines sent).
 */
export function simulationPayload(
  sim: Pick<Simulation, 'lastPayload' | 'transcript' | 'turns'>,
): Record<string, unknown> {
  const base =
    sim.lastPayload !== null && typeof sim.lastPayload === 'object' && !Array.isArray(sim.lastPayload)
      ? (sim.lastPayload as Record<string, unknown>)
      : {};
  return { ...base, transcript: sim.transcript, turns: sim.turns.length };
}

const errorOf = (err: unknown): { code: string; message: string } => ({
  code:
    typeof (err as { code?: unknown })?.code === 'string' ? (err as { code: string }).code : 'DROIDCHECK_ERR_INTERNAL',
  message: err instanceof Error ? err.message : String(err),
});

interface Counts {
  calls: number;
  promptTokens: number;
  completionTokens: number;
}

/** Where customer lines come from: the cache, then the model. */
interface LineSource {
  cache: LlmCache;
  provider: LlmProvider;
  model: string;
}

/** The next customer line: the cache, else the model (an empty answer asked once more). */
async function nextLine(
  source: LineSource,
  spec: SimulateSpec,
  turns: readonly SimulatedTurn[],
  signal: AbortSignal | undefined,
  counts: Counts,
  scope: ModelCallScope | undefined,
): Promise<{ text: string; cached: boolean }> {
  const { cache, provider, model } = source;
  const key = cacheKey([
    'simulator',
    SIMULATOR_PROMPT_VERSION,
    model,
    spec.persona,
    spec.goal,
    turns.map((t) => [t.customer, t.droid]),
  ]);
  const hit = await cache.get('simulator', key);
  if (typeof hit === 'string' && hit.trim() !== '') return { text: hit, cached: true };
  const messages = customerMessages(spec, turns);
  for (let attempt = 0; attempt < 2; attempt++) {
    const answer = await provider.chat(model, messages, signal, scope);
    counts.calls += 1;
    counts.promptTokens += answer.promptTokens;
    counts.completionTokens += answer.completionTokens;
    const text = answer.content.trim();
    if (text !== '') {
      await cache.set('simulator', key, text);
      return { text, cached: false };
    }
  }
  return { text: '', cached: false };
}

/** Creates a simulator over `provider` (see module docs). */
export function createSimulator(options: SimulatorOptions): Simulator {
  const redact = createRedactor([...(options.secrets ?? [])]);
  const { provider, model } = options;
  const source: LineSource = { cache: options.cache ?? NO_CACHE, provider, model };

  async function simulate(
    spec: SimulateSpec,
    ask: AskDroid,
    signal?: AbortSignal,
    scope?: ModelCallScope,
  ): Promise<Simulation> {
    const turns: SimulatedTurn[] = [];
    const counts: Counts = { calls: 0, promptTokens: 0, completionTokens: 0 };
    let cacheHits = 0;
    const done = (end: SimulationEnd, error?: { code: string; message: string }): Simulation => ({
      turns,
      end,
      ...(error ? { error: { code: error.code, message: redact(error.message) } } : {}),
      transcript: formatTranscript(turns),
      lastPayload: turns.at(-1)?.payload,
      calls: counts.calls,
      cacheHits,
      promptTokens: counts.promptTokens,
      completionTokens: counts.completionTokens,
    });
    while (turns.length < spec.maxTurns) {
      if (signal?.aborted) return done('aborted', { code: AbortedError.code, message: 'run interrupted' });
      let line: { text: string; cached: boolean };
      if (turns.length === 0 && spec.opening !== undefined) line = { text: spec.opening, cached: true };
      else {
        const limit = options.maxTokens;
        if (limit !== undefined && counts.promptTokens + counts.completionTokens >= limit) return done('token-limit');
        try {
          line = await nextLine(source, spec, turns, signal, counts, scope);
        } catch (err) {
          if (err instanceof AbortedError || signal?.aborted)
            return done('aborted', { code: AbortedError.code, message: 'run interrupted' });
          if (err instanceof BudgetError) return done('budget-spent', { code: BudgetError.code, message: err.message });
          // The provider words its errors for the judge ("judge model m: ..."): name the role played here.
          const message =
            err instanceof JudgeError
              ? err.message.replace(/^judge model /, 'simulator model ')
              : `simulator model ${model}: ${errorOf(err).message}`;
          return done('judge-error', { code: JudgeError.code, message });
        }
        if (line.cached) cacheHits += 1;
      }
      if (line.text === '') return done('empty');
      if (line.text.includes(STOP_MARKER)) return done('stop');
      const chatHistory: SimChatItem[] = [];
      for (const t of turns) chatHistory.push({ type: 'human', content: t.customer }, { type: 'ai', content: t.droid });
      let reply: DroidTurn;
      try {
        reply = await ask({ chatHistory, humanMessage: line.text }, signal);
      } catch (err) {
        if (signal?.aborted) return done('aborted', { code: AbortedError.code, message: 'run interrupted' });
        const e = errorOf(err);
        return done('droid-error', {
          code: e.code,
          message: `turn ${turns.length + 1} ("${line.text.slice(0, 80)}"): ${e.message}`,
        });
      }
      turns.push({
        customer: line.text,
        droid: answerTextOf(reply.payload),
        payload: reply.payload,
        latencyMs: reply.latencyMs,
        cached: line.cached,
      });
    }
    return done('max-turns');
  }

  return { simulate };
}
