/**
 * Fault profile: what the emulator does wrong, on purpose, and how often. YAML text or an
 * object; changeable at runtime (PUT /__emulator/faults). Every draw comes from one seeded
 * stream, so the same seed and the same request order give the same faults.
 *
 * ```yaml
 * seed: 7
 * ackDelay: { kind: uniform, minMs: 5, maxMs: 40 }
 * answerDelay: { kind: lognormal, medianMs: 800, sigma: 0.5, maxMs: 5000 }
 * requests:
 *   - { endpoint: get-droid-answer-async, probability: 0.05, action: error, status: 503 }
 *   - { endpoint: "*", probability: 0.01, action: rate-limit, retryAfterS: 2 }
 *   - { endpoint: get-droid-answer, probability: 0.01, action: reset }
 *   - { endpoint: [get-droid-answer, get-droid-answer-async], action: burst-first-late, delayMs: 1000 }
 * webhooks:
 *   - { probability: 0.1, action: duplicate, copies: 2 }
 *   - { probability: 0.05, action: late, delayMs: 10000 }
 *   - { target: message, probability: 0.1, action: drop }     # message forwarding
 *   - { target: intent, action: wrong-secret }                 # intent webhooks
 * ```
 * A webhook rule applies to the answer webhook unless `target` says `message`, `intent` or `*`.
 */
import { parse } from 'yaml';
import { z } from 'zod';
import { ENDPOINT_NAMES, type EndpointName } from '../../contract/index.js';
import { parseYamlFile } from '../profile/load.js';

export type { EndpointName };

const delaySchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('fixed'), ms: z.number().nonnegative() }),
  z.strictObject({ kind: z.literal('uniform'), minMs: z.number().nonnegative(), maxMs: z.number().nonnegative() }),
  z.strictObject({
    kind: z.literal('lognormal'),
    medianMs: z.number().positive(),
    sigma: z.number().nonnegative(),
    maxMs: z.number().positive().optional(),
  }),
]);
export type DelayDistribution = z.infer<typeof delaySchema>;

const probability = z.number().min(0).max(1).default(1);

/** Which endpoints a request rule matches: one, a list, or `*` (default). */
const endpointMatch = z.union([z.enum([...ENDPOINT_NAMES, '*']), z.array(z.enum(ENDPOINT_NAMES)).min(1)]).default('*');
const requestRule = <A extends string, S extends z.ZodRawShape>(action: A, shape: S) =>
  z.strictObject({ endpoint: endpointMatch, probability, action: z.literal(action), ...shape });

/**
 * A request fault: one variant per action, each with only its own fields, so a handler table
 * keyed by action (hook.ts) is checked by the compiler: an action without its handler does not
 * compile.
 */
const requestFaultSchema = z.discriminatedUnion('action', [
  /** A 5xx with the spec's error body. `status` default 503. */
  requestRule('error', { status: z.number().int().min(500).max(599).default(503) }),
  /** 429 with `Retry-After: retryAfterS` (seconds, default 1). */
  requestRule('rate-limit', { retryAfterS: z.number().int().nonnegative().default(1) }),
  /** The TCP connection reset, no response. */
  requestRule('reset', {}),
  /** The socket held open with no response until the client gives up. */
  requestRule('hang', {}),
  /** Extra time before the endpoint runs. */
  requestRule('delay', { delay: delaySchema.optional() }),
  /**
   * On a later message of a burst (its history ends in human turns), the answer to the burst's
   * first message, while still being made, is held `delayMs` more (default 1000): answers arrive
   * out of order, the last one stale (faults/burst.ts, docs/bursts.md). It never answers the
   * request itself, so the rules after it still fire.
   */
  requestRule('burst-first-late', { delayMs: z.number().nonnegative().default(1000) }),
]);
export type RequestFaultRule = z.infer<typeof requestFaultSchema>;
/** The request faults' actions, from the schema (a new variant is a new member). */
export type RequestFaultAction = RequestFaultRule['action'];

/** Which outbound webhook a rule applies to (default: the answer webhook). */
const WEBHOOK_TARGETS = ['answer', 'message', 'intent', '*'] as const;

/** answer (default), message (forwarding, `verify_token`), intent (secret in the body), or `*`. */
const webhookTarget = z.enum(WEBHOOK_TARGETS).default('answer');
const webhookRule = <A extends string, S extends z.ZodRawShape>(action: A, shape: S) =>
  z.strictObject({ target: webhookTarget, probability, action: z.literal(action), ...shape });

/**
 * A webhook fault: one variant per action (webhook-plan.ts folds the rules that fired into one
 * delivery plan through a handler table keyed by action, checked by the compiler).
 * `wrong-secret` / `missing-secret`: the answer's `secret`, the message's `verify_token`, the
 * intent body's `secret`.
 */
const webhookFaultSchema = z.discriminatedUnion('action', [
  webhookRule('drop', {}),
  /** `copies`: copies sent in total (>= 2). Default 2. */
  webhookRule('duplicate', { copies: z.number().int().min(2).max(10).default(2) }),
  /** `delayMs`: extra delay before the delivery, ms. Default 10_000. */
  webhookRule('late', { delayMs: z.number().nonnegative().default(10_000) }),
  /** The answer webhook only: an error payload (`error`, its text) instead of the answer. */
  z.strictObject({
    target: z
      .literal('answer', { error: 'error-payload applies to the answer webhook only (target: answer)' })
      .default('answer'),
    probability,
    action: z.literal('error-payload'),
    error: z.string().default('Failed to generate AI response: timeout'),
  }),
  webhookRule('wrong-secret', {}),
  webhookRule('missing-secret', {}),
]);
export type WebhookFaultRule = z.infer<typeof webhookFaultSchema>;
/** The webhook faults' actions, from the schema. */
export type WebhookFaultAction = WebhookFaultRule['action'];

const faultProfileSchema = z.strictObject({
  /** Seed of the fault stream; default: the emulator's seed. */
  seed: z.number().int().optional(),
  ackDelay: delaySchema.optional(),
  answerDelay: delaySchema.optional(),
  requests: z.array(requestFaultSchema).max(100).default([]),
  webhooks: z.array(webhookFaultSchema).max(100).default([]),
});
export type FaultProfile = z.infer<typeof faultProfileSchema>;
/** What a caller may pass: an object in the profile's shape, or YAML/JSON text. */
export type FaultProfileInput = z.input<typeof faultProfileSchema> | string;

export class FaultProfileError extends Error {
  constructor(readonly issues: string[]) {
    super(`invalid fault profile: ${issues.join('; ')}`);
  }
}

/** Parses and validates; throws FaultProfileError listing every issue with its path. */
export function parseFaultProfile(input: FaultProfileInput | undefined): FaultProfile {
  let raw: unknown = input ?? {};
  if (typeof input === 'string') {
    try {
      raw = parse(input) ?? {};
    } catch (err) {
      throw new FaultProfileError([(err as Error).message]);
    }
  }
  const parsed = faultProfileSchema.safeParse(raw);
  if (!parsed.success)
    throw new FaultProfileError(parsed.error.issues.map((i) => `${i.path.join('.') || '(profile)'}: ${i.message}`));
  return parsed.data;
}

/**
 * Parses a fault profile file (`droidcheck emulate --faults FILE`): like {@link parseFaultProfile},
 * but every problem is reported at file:line:col of `file` (ScenarioError,
 * DROIDCHECK_ERR_SCENARIO, exit 2), as `--profile` errors are.
 */
export function parseFaultProfileFile(text: string, file: string): FaultProfile {
  return parseYamlFile(text, file, faultProfileSchema);
}
