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
 *     chatHistory:                 # optional; {human: t} | {ai: t} | {type: human|ai, content: t}
 *       - human: Hi
 *     humanMessage: I'll take 2    # required
 *     expect:                      # optional; dotted path -> matcher object, or a value (= equals)
 *       intents: { includes: purchase }
 *     latency: "< 180s"            # optional; "<" or "<=", a number, ms|s|m
 * ```
 */
import { z } from 'zod';
import { MATCHERS } from './matchers/registry.js';

/** `< 100ms`, `<= 2.5s`, `< 3m` (the operator may be left out). */
export const LATENCY_PATTERN = /^\s*(<=?)?\s*(\d+(?:\.\d+)?)\s*(ms|s|m)\s*$/;

const matcherShape: Record<string, z.ZodType> = {};
for (const m of MATCHERS.values()) matcherShape[m.name] = m.schema.optional().describe(m.summary);
matcherShape.ignoreCase = z.boolean().optional().describe('compare strings ignoring case (modifier for the other matchers)');

/** A matcher object: one or more matchers; all must pass (an empty one is refused by rules.ts). */
export const matcherObjectSchema = z
  .strictObject({
    ...matcherShape,
    get json(): z.ZodOptional<z.ZodRecord<z.ZodString, typeof matcherValueSchema>> {
      return z.record(z.string(), matcherValueSchema).optional().describe('parse a JSON string and assert paths inside it');
    },
  });

/** A matcher object, or a plain value (scalar or list) meaning `equals`. */
export const matcherValueSchema: z.ZodType = z.union(
  [matcherObjectSchema, z.string(), z.number(), z.boolean(), z.null(), z.array(z.unknown())],
  { error: 'expected a matcher object (e.g. { contains: x }) or a value to compare with' },
);

const text = z.string();
export const chatTurnSchema = z.union(
  [
    z.strictObject({ human: text }),
    z.strictObject({ ai: text }),
    z.strictObject({ type: z.enum(['human', 'ai']), content: text }),
  ],
  { error: 'a chat turn is {human: text}, {ai: text} or {type: human|ai, content: text}' },
);

const modeSchema = z.enum(['sync', 'async']);
export const modesSchema = z.union([z.array(modeSchema).min(1, 'modes is empty: leave it out to run both modes'), z.enum(['sync', 'async', 'both'])]);

export const userScenarioSchema = z.strictObject({
  name: z.string().min(1, 'name must not be empty'),
  tags: z.union([z.array(z.string()), z.string()]).optional(),
  modes: modesSchema.optional(),
  chatHistory: z.array(chatTurnSchema).optional(),
  humanMessage: z.string().min(1, 'humanMessage must not be empty'),
  expect: z.record(z.string(), matcherValueSchema).optional(),
  latency: z.string().regex(LATENCY_PATTERN, 'latency must look like "< 180s", "<= 2.5s" or "< 100ms" (units ms, s, m)').optional(),
});

export const userSuiteSchema = z.strictObject({
  suite: z.string().min(1, 'suite must not be empty').optional(),
  scenarios: z.array(userScenarioSchema).min(1, 'scenarios is empty: a suite needs at least one scenario'),
});

export type UserSuite = z.infer<typeof userSuiteSchema>;
export type UserScenario = z.infer<typeof userScenarioSchema>;
export type UserChatTurn = z.infer<typeof chatTurnSchema>;
