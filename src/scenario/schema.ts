/**
 * The user format (what a suite file may hold), as zod schemas: `userSuiteSchema` and the
 * inferred `UserSuite`. No transforms here, so `z.toJSONSchema` can export it (json-schema.ts);
 * normalising into the resolved `Suite` happens in normalise.ts.
 *
 * ```yaml
 * suite: Purchases                 # optional; default: the file name without extension
 * scenarios:                       # required, at least one
 *   - name: buys two shirts        # required, unique in the suite
 *     tags: [cart]                 # optional; a list or one string
 *     modes: [sync, async]         # optional; or "both" | "sync" | "async"
 *     chatHistory:                 # optional; {human: t} | {ai: t} | {type: human|ai, content: t, contentType?: image, alt?: t}
 *       - human: Hi
 *     humanMessage: I'll take 2    # required
 *     expect:                      # optional; dotted path -> matcher object, or a value (= equals)
 *       intents: { includes: purchase }
 *     latency: "< 180s"            # optional; "<" or "<=", a number, ms|s|m
 *     repeat: 5                    # optional; runs per mode (nondeterministic answers)
 *     passRate: 0.8                # optional; share of runs that must pass (or minPasses: 4)
 *     intents: [purchase]          # optional; expected intents for the accuracy report
 *   - name: "buys {{ vars.product }}" # `each:` a table: one scenario per row (rows.ts, each.ts)
 *     each: ./products.csv         # or rows inline: [{ product: shirt, total: "1,290.00 THB" }]
 *     humanMessage: I want one {{ vars.product }}
 *     expect:
 *       shoppingCart.grandTotal: { money: "{{ vars.total }}" }
 *       answer: { code: ./checks.mjs#namesTotal }  # a function of your own (code.ts)
 *   - name: human takeover         # `steps:` instead of `humanMessage:` (see step-schema docs below)
 *     vars: { customer: 1001 }     # optional; initial variables for {{ vars.name }}
 *     steps:
 *       - call: setBot
 *         customerId: "{{ vars.customer }}"
 *         botEnabled: false
 *       - call: send              # bot off: nothing of type ai may arrive within 5 s
 *         customerId: "{{ vars.customer }}"
 *         humanMessage: Can a person help me?
 *         noReplyWithin: 5s
 *       - say: Hello                # an answer turn in the scenario's mode
 *       - burst:                    # messages 300 ms apart, not waiting for the answers
 *           say: [I want 2 shirts, { say: and a belt, expect: { answer: { present: true } } }]
 *           gap: 300ms
 *           final: last-message     # expect judges this answer (default: last-delivered)
 *         expect: { shoppingCart.products: { length: 2 } }
 *         expect: { answer: { present: true } }
 *         capture: { firstAnswer: answer }
 *         intentWebhook: { within: 30s, expect: { intent: greeting } }
 *   - name: a customer's message gets the bot's reply
 *     steps:
 *       - call: send
 *         customerId: 1001
 *         humanMessage: I'd like 2 shirts
 *         waitForReply: 30s         # or { within: 30s, from: [ai, admin] }
 *         expect: { reply.type: ai } # the body: { ...send response, reply: MessageForwarding | null }
 * ```
 * Durations need their unit (`30s`, `500ms`, `2m`). Which step may carry which wait is checked
 * by step-rules.ts; docs/steps.md explains the waits.
 */
import { z } from 'zod';
import { SPEC_1_TO_6 } from '../contract/index.js';
import { codeRefSchema } from './code.js';
import { GRADED_MATCHERS } from './matchers/graded.js';
import { MATCHERS } from './matchers/registry.js';
import { MAX_SIMULATE_TURNS } from './simulate.js';
import { BURST_FINALS, MAX_BURST_MESSAGES } from './types.js';

/** `< 100ms`, `<= 2.5s`, `< 3m` (the operator may be left out). */
export const LATENCY_PATTERN = /^\s*(<=?)?\s*(\d+(?:\.\d+)?)\s*(ms|s|m)\s*$/;

const matcherShape: Record<string, z.ZodType> = {};
for (const m of MATCHERS.values()) matcherShape[m.name] = m.schema.optional().describe(m.summary);
for (const m of GRADED_MATCHERS.values()) matcherShape[m.name] = m.schema.optional().describe(m.summary);
matcherShape.code = codeRefSchema
  .optional()
  .describe(
    'a function of your own: ./checks.mjs#name (relative to the suite) is called with the value and { payload, vars, scenario, mode, turn } and returns true/false or { pass, message } (docs/tables-and-code.md)',
  );
matcherShape.ignoreCase = z
  .boolean()
  .optional()
  .describe('compare strings ignoring case (modifier for the other matchers)');

/** A matcher object: one or more matchers; all must pass (an empty one is refused by rules.ts). */
export const matcherObjectSchema = z.strictObject({
  ...matcherShape,
  get json(): z.ZodOptional<z.ZodRecord<z.ZodString, typeof matcherValueSchema>> {
    return z
      .record(z.string(), matcherValueSchema)
      .optional()
      .describe('parse a JSON string and assert paths inside it');
  },
});

/** A matcher object, or a plain value (scalar or list) meaning `equals`. */
export const matcherValueSchema: z.ZodType = z.union(
  [matcherObjectSchema, z.string(), z.number(), z.boolean(), z.null(), z.array(z.unknown())],
  { error: 'expected a matcher object (e.g. { contains: x }) or a value to compare with' },
);

const text = z.string();
const chatTurnSchema = z.union(
  [
    z.strictObject({ human: text }),
    z.strictObject({ ai: text }),
    z.strictObject({
      type: z.enum(['human', 'ai']),
      content: text,
      contentType: z
        .enum(['text', 'image'])
        .optional()
        .describe('image: content is the image URL (spec: Conversation message)'),
      alt: z
        .string()
        .optional()
        .describe("an image's alternative text; sent with it, the service skips describing the image (spec 10)"),
    }),
  ],
  {
    error:
      'a chat turn is {human: text}, {ai: text} or {type: human|ai, content: text, contentType?: text|image, alt?: text}',
  },
);

const modeSchema = z.enum(['sync', 'async']);
const modesSchema = z.union([
  z.array(modeSchema).min(1, 'modes is empty: leave it out to run both modes'),
  z.enum(['sync', 'async', 'both']),
]);

const expectSchema = z.record(z.string(), matcherValueSchema);
const latencySchema = z
  .string()
  .regex(LATENCY_PATTERN, 'latency must look like "< 180s", "<= 2.5s" or "< 100ms" (units ms, s, m)');

/** Names a variable may have (`{{ vars.name }}`). */
export const VAR_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;
const varName = 'a variable name is letters, digits and _, not starting with a digit';
/** `capture: { varName: dotted.path.of.the.response }` (names are checked by step-rules.ts). */
const captureSchema = z.record(z.string().describe(varName), z.string().min(1, 'a capture path must not be empty'));
const varValueSchema = z.union([z.string(), z.number(), z.boolean()], {
  error: 'a variable value is a string, a number or true/false',
});

/** The endpoints a `call` step may name (spec: Endpoints 1-7, 10): spec 7 and 10 by the client's method names. */
export const CALL_NAMES = [...SPEC_1_TO_6, 'setBot', 'imageAlt'] as const;

/** A duration with its unit (`500ms`, `30s`, `2m`, `1h`; src/units.ts): a bare number is refused. */
const DURATION_PATTERN = /^\s*\d+(?:\.\d+)?\s*(?:ms|s|m|h)\s*$/;
const DURATION_HINT = 'a duration with its unit, e.g. 30s, 500ms or 2m';
/** Its own type error, so that a number gets the duration hint instead of "expected a string". */
const durationSchema = z
  .string({ error: DURATION_HINT })
  .regex(DURATION_PATTERN, `${DURATION_HINT} (the unit is required)`);

/**
 * `think:` the customer's pause before a step (docs/conversations.md): a duration (`5s`), a
 * uniform range `{ min: 2s, max: 8s }`, or `{ lognormal: { median: 4s, p90: 12s } }`. At most
 * 10 min; min <= max and median < p90 are checked by think-rules.ts.
 */
const thinkSchema = z.union(
  [
    durationSchema,
    z.strictObject({ min: durationSchema.describe('shortest pause'), max: durationSchema.describe('longest pause') }),
    z.strictObject({
      lognormal: z.strictObject({
        median: durationSchema.describe('half the pauses are shorter'),
        p90: durationSchema.describe('90% of the pauses are shorter'),
      }),
    }),
  ],
  { error: `${DURATION_HINT}, a range { min: 2s, max: 8s } or { lognormal: { median: 4s, p90: 12s } }` },
);
const thinkDescription =
  "the customer's pause before this step, not counted in any latency: 5s, { min: 2s, max: 8s } or { lognormal: { median: 4s, p90: 12s } }";

/**
 * Who may send the reply a `send` step waits for (MessageForwarding.type, docs
 * receiving-webhook.mdx). `human` is left out: the forwarded copy of the sent message is `human`.
 */
const REPLY_SENDERS = ['ai', 'admin', 'system', 'log'] as const;

/** `waitForReply` / `noReplyWithin`: a duration (reply of type ai), or `{ within, from }`. */
const replyWaitSchema = z.union(
  [
    durationSchema,
    z.strictObject({
      within: durationSchema.describe("window from the step's start"),
      from: z
        .array(z.enum(REPLY_SENDERS))
        .min(1, 'from is empty: leave it out for [ai]')
        .optional()
        .describe('sender types that count as the reply; default [ai]'),
    }),
  ],
  { error: `${DURATION_HINT}, or { within: 30s, from: [ai, admin] }` },
);

/**
 * `intentWebhook: { within: 30s, expect: {...} }`: an intent webhook (docs intent-webhook.mdx)
 * must arrive within `within` of the droid's answer; `expect` paths read its body
 * (IntentWebhookRequest). A plain `intent: name` in `expect` also selects which webhook to wait for.
 */
const intentWebhookSchema = z.strictObject({
  within: durationSchema.describe("window from the droid's answer (the say's answer, or the send's reply)"),
  expect: expectSchema.optional(),
});

/** `say: text`: an answer turn in the scenario's mode (sync get-droid-answer or async + webhook). */
const sayStepSchema = z.strictObject({
  say: z.string().min(1, 'say must not be empty'),
  expect: expectSchema.optional(),
  latency: latencySchema.optional(),
  capture: captureSchema.optional(),
  intentWebhook: intentWebhookSchema.optional().describe('an intent webhook the answer must trigger'),
  think: thinkSchema.optional().describe(thinkDescription),
});

/**
 * `call: <endpoint>` with the fields that endpoint takes (which fields are required per call is
 * checked by step-rules.ts). `status` expects a non-2xx answer (e.g. 403), whose `{error, message}`
 * body the expectations then see.
 */
const callStepSchema = z.strictObject({
  call: z.enum(CALL_NAMES),
  customerId: z
    .union([z.number().int(), z.string().min(1)], { error: 'customerId is a number or a string' })
    .optional(),
  prompt: z.string().min(1, 'prompt must not be empty').optional(),
  humanMessage: z.string().min(1, 'humanMessage must not be empty').optional(),
  botEnabled: z.boolean().optional(),
  imageUrl: z.string().min(1, 'imageUrl must not be empty').optional(),
  status: z.number().int().min(100).max(599).optional(),
  waitForReply: replyWaitSchema
    .optional()
    .describe("send: wait for the bot's reply through the message webhook; expect/capture read it as reply.*"),
  noReplyWithin: replyWaitSchema
    .optional()
    .describe('send: no reply (of type ai) may arrive within this window (human takeover)'),
  intentWebhook: intentWebhookSchema
    .optional()
    .describe('send with waitForReply: an intent webhook the reply must trigger'),
  think: thinkSchema.optional().describe(thinkDescription),
  expect: expectSchema.optional(),
  latency: latencySchema.optional(),
  capture: captureSchema.optional(),
});

/** One message of a burst: its text, or `{ say: text, expect, latency }` for what its own answer must hold. */
const burstMessageSchema = z.union(
  [
    z.string().min(1, 'a burst message must not be empty'),
    z.strictObject({
      say: z.string().min(1, 'say must not be empty'),
      expect: expectSchema.optional().describe("what this message's own answer must hold"),
      latency: latencySchema.optional().describe("this message's answer latency limit"),
    }),
  ],
  { error: 'a burst message is text, or { say: text, expect: {...}, latency: "< 30s" }' },
);

/**
 * `burst: { say: [...], gap: 300ms, final? }`: the customer's messages sent `gap` apart without
 * waiting for the answers (docs/bursts.md); the step's `expect` and `capture` read the final
 * state, the answer `final` names (default `last-delivered`).
 */
const burstStepSchema = z.strictObject({
  burst: z.strictObject({
    say: z
      .array(burstMessageSchema)
      .min(2, 'a burst is at least 2 messages (one message is a say step)')
      .max(MAX_BURST_MESSAGES, `a burst is at most ${MAX_BURST_MESSAGES} messages`)
      .describe('the messages, in the order the customer sends them'),
    gap: durationSchema.describe('time between two messages, e.g. 300ms (0ms: all at once)'),
    final: z
      .enum(BURST_FINALS)
      .optional()
      .describe(
        "which answer expect judges: last-delivered (default: the last answer the customer saw) or last-message (the answer to the burst's last message)",
      ),
  }),
  expect: expectSchema.optional().describe("the burst's final state (burst.final says which answer)"),
  latency: latencySchema.optional().describe("every message's answer latency limit (a message's own latency wins)"),
  capture: captureSchema.optional().describe('values of the final state'),
  think: thinkSchema.optional().describe(thinkDescription),
});

const stepSchema = z.union([sayStepSchema, callStepSchema, burstStepSchema], {
  error: `a step is a map: { say: text, ... }, { burst: { say: [...], gap: 300ms }, ... } or { call: ${CALL_NAMES.join('|')}, ... }`,
});

/**
 * `simulate:` instead of `humanMessage`/`steps`: a model plays the customer (src/llm/simulator.ts).
 * `expect` then reads the last answer payload plus `transcript` and `turns`.
 */
const simulateSchema = z.strictObject({
  persona: z
    .string()
    .min(1, 'persona must not be empty')
    .describe('who the customer is, e.g. "a busy parent who writes short messages"'),
  goal: z
    .string()
    .min(1, 'goal must not be empty')
    .describe('what the customer wants done, e.g. "buy two Oxford shirts delivered to Chiang Mai"'),
  maxTurns: z
    .number()
    .int('maxTurns is a whole number')
    .min(1, 'maxTurns must be at least 1')
    .max(MAX_SIMULATE_TURNS, `maxTurns is at most ${MAX_SIMULATE_TURNS}`)
    .optional()
    .describe("customer lines at most (default 8); each is an answer turn in the scenario's mode"),
  opening: z
    .string()
    .min(1, 'opening must not be empty')
    .optional()
    .describe('a fixed first customer line (the model writes the rest)'),
});

/** A table's cell (`each:`): what `vars:` takes, or a list or map for a whole-value template (`chatHistory`). */
const cellSchema = z.union(
  [z.string(), z.number(), z.boolean(), z.array(z.unknown()), z.record(z.string(), z.unknown())],
  {
    error: 'a cell is a string, a number, true/false, a list or a map',
  },
);
/** `each:` rows inline, or a rows file beside the suite (scenario/rows.ts). */
const eachSchema = z.union(
  [
    z.string().regex(/\.(csv|jsonl|json|ya?ml)$/i, 'a rows file ends in .csv, .jsonl, .json, .yaml or .yml'),
    z.array(z.record(z.string().describe(varName), cellSchema)).min(1, 'each is empty: give at least one row'),
  ],
  { error: 'each: a list of rows ({ column: value } maps) or a rows file (./rows.csv, .jsonl, .json, .yaml)' },
);

const repeatSchema = z.number().int().min(1, 'repeat must be at least 1').max(10_000, 'repeat is at most 10000');
const passRateSchema = z.number().min(0, 'passRate is from 0 to 1').max(1, 'passRate is from 0 to 1 (0.8 means 80%)');
const minPassesSchema = z.number().int().min(0, 'minPasses must not be negative');

export const userScenarioSchema = z.strictObject({
  name: z.string().min(1, 'name must not be empty'),
  tags: z.union([z.array(z.string()), z.string()]).optional(),
  modes: modesSchema.optional(),
  chatHistory: z
    .union([
      z.array(chatTurnSchema),
      z
        .string()
        .regex(
          /^\{\{\s*vars\.[A-Za-z_][A-Za-z0-9_]*\s*\}\}$/,
          'chatHistory is a list of turns, or "{{ vars.<column> }}" naming a column of the table (each:) that holds one',
        ),
    ])
    .optional(),
  humanMessage: z.string().min(1, 'humanMessage must not be empty').optional(),
  expect: expectSchema.optional(),
  latency: latencySchema.optional(),
  vars: z.record(z.string().describe(varName), varValueSchema).optional(),
  steps: z.array(stepSchema).min(1, 'steps is empty: leave it out and write humanMessage, or add a step').optional(),
  think: thinkSchema
    .optional()
    .describe("steps: the customer's default pause before every say after the first (a step's own think wins)"),
  simulate: simulateSchema
    .optional()
    .describe(
      'a simulated customer (persona, goal) instead of humanMessage or steps; expect reads the last answer plus transcript and turns',
    ),
  repeat: repeatSchema.optional(),
  passRate: passRateSchema.optional(),
  minPasses: minPassesSchema.optional(),
  intents: z.array(z.string().min(1)).optional(),
  each: eachSchema
    .optional()
    .describe(
      'a table: the scenario runs once per row, its columns as {{ vars.<column> }} (rows inline, or ./rows.csv, .jsonl, .json, .yaml beside the suite; docs/tables-and-code.md)',
    ),
});

export const userSuiteSchema = z.strictObject({
  suite: z.string().min(1, 'suite must not be empty').optional(),
  scenarios: z.array(userScenarioSchema).min(1, 'scenarios is empty: a suite needs at least one scenario'),
  repeat: repeatSchema.optional().describe('default repeat of the scenarios'),
  passRate: passRateSchema
    .optional()
    .describe('share of all runs of the suite that must pass; default passRate of its scenarios'),
  minPasses: minPassesSchema.optional().describe('default minPasses of the scenarios'),
});

export type UserSuite = z.infer<typeof userSuiteSchema>;
export type UserScenario = z.infer<typeof userScenarioSchema>;
export type UserChatTurn = z.infer<typeof chatTurnSchema>;
export type UserStep = z.infer<typeof stepSchema>;
