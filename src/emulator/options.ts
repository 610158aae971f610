/**
 * `EmulatorOptions` (what a caller writes) and `ResolvedEmulatorOptions` (what the emulator
 * runs with). Defaults are documented at each option below; those `droidcheck emulate` shares
 * are src/defaults.ts's (EMULATOR_DEFAULTS), stated once for the emulator and the table of options.
 */
import { randomBytes } from 'node:crypto';
import { EMULATOR_DEFAULTS } from '../defaults.js';
import type { Catalogue } from './ai/catalogue.js';
import type { FaultProfileInput } from './faults/profile.js';
import type { Weakness } from './ai/weaknesses.js';
import type { EmulatorProfile } from './profile/schema.js';
import type { EmulatorTracer } from './tracing.js';

interface DeliveryOptions {
  /** Total attempts per webhook delivery, first one included. Default 3 (EMULATOR_DEFAULTS). */
  attempts?: number;
  /** Backoff before retry n (1-based) is `backoffMs * 2^(n-1)`, capped at maxBackoffMs, times the seeded jitter. Default 500 (EMULATOR_DEFAULTS). */
  backoffMs?: number;
  /** Default 10_000. */
  maxBackoffMs?: number;
  /** Per-attempt timeout: the receiver must answer within it (spec: Events, "within 5 seconds"). Default 5_000 (EMULATOR_DEFAULTS). */
  timeoutMs?: number;
  /**
   * Jitter of each backoff, a fraction 0..1: the delay is drawn in [1 - jitter, 1 + jitter) times
   * the base (seeded). Default 0.5 (EMULATOR_DEFAULTS); 0 gives the exact schedule (what `webhook-policy` tests compare with).
   */
  jitter?: number;
}

export interface IntentWebhookOverride {
  url: string;
  /** The "API Secret Key" sent in the body as `secret`. Default "". */
  secret?: string;
  /** Only these intent names; default: every intent of the profile. */
  intents?: string[];
}

interface RateLimitOptions {
  /** Requests allowed per token per window. */
  max: number;
  /** Window length in ms. Default 1_000. */
  timeWindowMs?: number;
}

interface EmulatorClock {
  /** Wall clock, for timestamps and the delivery-log retention. */
  wallNow(): Date;
}

export interface EmulatorOptions {
  /** Default 127.0.0.1 (only used by listen()). */
  host?: string;
  /** Default 0 (a free port). */
  port?: number;
  /** Default 1, or the profile's droid id. */
  droidId?: number;
  /** Default: a random token; exposed as `emulator.token`. */
  token?: string;
  /** Default 1001 (or the profile's); null => 400 "Droid Missing Test Customer Id". */
  testCustomerId?: number | null;
  /**
   * Default null => 400 webhook not configured. Several URLs: deliveries take them in turn, a
   * retry the next one (a load balancer in front of several receivers; webhook-dispatcher.ts).
   */
  webhookUrl?: string | readonly string[] | null;
  /** Appended to the webhook URL as `?secret=`. */
  webhookSecret?: string | null;
  /**
   * Message-forwarding webhook (docs receiving-webhook.mdx): every stored message is POSTed here
   * as a MessageForwarding body. Default null: not configured (nothing forwarded).
   */
  messageWebhookUrl?: string | null;
  /** The message webhook's Verify Token, appended as `?verify_token=`. */
  verifyToken?: string | null;
  /**
   * Sends intent webhooks (docs intent-webhook.mdx) to this URL and secret for every detected
   * intent (or only those in `intents`), over the profile's per-intent webhooks. Default: the profile's.
   */
  intentWebhook?: IntentWebhookOverride | null;
  /** Delay before the async acknowledgement, ms. Default 0. */
  ackDelayMs?: number;
  /** Delay before the answer (sync response / webhook POST), ms. Default 0. */
  answerDelayMs?: number;
  /** Seed of every random draw. Default 1 (EMULATOR_DEFAULTS). */
  seed?: number;
  /** Fastify request logging. Default false. */
  logger?: boolean;
  /** Webhook retry policy. */
  delivery?: DeliveryOptions;
  /** Per-token rate limit (429 with Retry-After). Default: off. */
  rateLimit?: RateLimitOptions | false;
  /** Profile object, or a path to a profile YAML file. Default: scenarios/emulator-profile.yaml. */
  profile?: EmulatorProfile | string;
  /**
   * Planted weaknesses for a red team to find (ai/weaknesses.ts: discount,
   * cross-conversation-leak, recite-instructions, negative-quantity). Default: the profile's
   * `weaknesses` (none in the shipped profiles: a robust droid).
   */
  weaknesses?: readonly Weakness[];
  /**
   * The planted knee (ai/degrade.ts): above this many answers in progress (sync and async), answers
   * degrade to a generic apology with no cart and no intent, latency unchanged. Default: the
   * profile's `degradeAbove` (null: never).
   */
  degradeAbove?: number | null;
  /** Catalogue of the rule engine. Default: the profile's catalogue. */
  catalogue?: Catalogue;
  /** Initial fault profile (object or YAML text). Default: none. */
  faults?: FaultProfileInput;
  /** Webhook delivery log retention, ms. Default 7 days (spec: Limits). */
  deliveryLogRetentionMs?: number;
  /** Injected clock. Default: the system clock. */
  clock?: EmulatorClock;
  /**
   * Traces each answer request under the caller's `traceparent` (tracing.ts; src/telemetry builds
   * one when export is on). Default: none, nothing traced. Closed with the emulator.
   */
  tracer?: EmulatorTracer;
}

export interface ResolvedEmulatorOptions {
  host: string;
  port: number;
  token: string;
  ackDelayMs: number;
  answerDelayMs: number;
  seed: number;
  logger: boolean;
  delivery: Required<DeliveryOptions>;
  rateLimit: Required<RateLimitOptions> | false;
  deliveryLogRetentionMs: number;
  clock: EmulatorClock;
  tracer: EmulatorTracer | undefined;
}

const systemEmulatorClock: EmulatorClock = { wallNow: () => new Date() };

const SEVEN_DAYS_MS = 7 * 24 * 60 * 60 * 1000;

function nonNegative(name: string, value: number | undefined, fallback: number): number {
  const v = value ?? fallback;
  if (!Number.isFinite(v) || v < 0)
    throw new RangeError(`emulator option ${name} must be a non-negative number, got ${String(value)}`);
  return v;
}

/** A token of the emulator's making (none given, or rotated): `dc_` and 32 random characters. */
export const newToken = (): string => `dc_${randomBytes(24).toString('base64url')}`;

/** Applies defaults; throws RangeError for a negative or non-finite number. */
export function resolveOptions(options: EmulatorOptions): ResolvedEmulatorOptions {
  const d = options.delivery ?? {};
  const rl = options.rateLimit;
  const { host, port, seed, delivery } = EMULATOR_DEFAULTS;
  return {
    host: options.host ?? host,
    port: options.port ?? port,
    token: options.token ?? newToken(),
    ackDelayMs: nonNegative('ackDelayMs', options.ackDelayMs, 0),
    answerDelayMs: nonNegative('answerDelayMs', options.answerDelayMs, 0),
    seed: options.seed ?? seed,
    logger: options.logger ?? false,
    delivery: {
      attempts: Math.max(1, Math.floor(nonNegative('delivery.attempts', d.attempts, delivery.attempts))),
      backoffMs: nonNegative('delivery.backoffMs', d.backoffMs, delivery.backoffMs),
      maxBackoffMs: nonNegative('delivery.maxBackoffMs', d.maxBackoffMs, 10_000),
      timeoutMs: nonNegative('delivery.timeoutMs', d.timeoutMs, delivery.timeoutMs),
      jitter: Math.min(1, nonNegative('delivery.jitter', d.jitter, delivery.jitter)),
    },
    rateLimit: rl ? { max: Math.max(1, Math.floor(rl.max)), timeWindowMs: rl.timeWindowMs ?? 1_000 } : false,
    deliveryLogRetentionMs: nonNegative('deliveryLogRetentionMs', options.deliveryLogRetentionMs, SEVEN_DAYS_MS),
    clock: options.clock ?? systemEmulatorClock,
    tracer: options.tracer,
  };
}
