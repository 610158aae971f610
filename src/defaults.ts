/**
 * droidcheck's defaults that are no option's alone, stated once (leaf module: it imports
 * nothing of ours). Two kinds live here:
 *
 * - the embedded emulator's own defaults (and the names of its planted weaknesses): two parts
 *   read them and may not import each other
 *   (docs/architecture.md, Layout), the emulator (emulator/options.ts fills an option left out
 *   with them) and the table of options (config/options.ts: the defaults of `droidcheck
 *   emulate`'s flags and of `webhook-policy`'s `--webhook-*` flags, which configure the embedded
 *   emulator), so `droidcheck emulate`, an emulator created through the API and docs/options.md
 *   cannot disagree;
 * - the defaults of a part a job configures from an option (the runner's message-webhook check,
 *   the doctor's clock check) that a library user may also call without one: the table's default
 *   of the option is this value, so the command line and the API cannot disagree either.
 *
 * Every other default is the table's (config/options.ts).
 */

/** The webhook retry policy of the embedded emulator; `webhook-policy` measures it like a real service's. */
export const EMULATOR_DELIVERY_DEFAULTS = {
  /** Attempts per delivery, the first included. */
  attempts: 3,
  /** Delay before retry n (1-based) is `backoffMs × 2^(n-1)` (capped), times the jitter, ms. */
  backoffMs: 500,
  /** How long an attempt waits for the receiver's answer, ms: the spec's "within 5 seconds" (Events). */
  timeoutMs: 5_000,
  /** Each delay is drawn in [1 - jitter, 1 + jitter) × its base (seeded); 0: the exact schedule. */
  jitter: 0.5,
} as const;

/**
 * The flaws the embedded emulator can have planted (emulator/ai/weaknesses.ts says what each
 * does): the profile's `weaknesses:` and redteam's `--emulator-weaknesses` choices. Off by
 * default: the emulator is a robust droid.
 */
export const EMULATOR_WEAKNESSES = [
  'discount',
  'cross-conversation-leak',
  'recite-instructions',
  'negative-quantity',
  'last-human-turn-only',
] as const;

export const EMULATOR_DEFAULTS = {
  /** The address it listens on: this machine only. */
  host: '127.0.0.1',
  /** 0: any free port (the URL says which). */
  port: 0,
  /** Seed of every random draw (faults, jitter): the same seed, the same draws. */
  seed: 1,
  delivery: EMULATOR_DELIVERY_DEFAULTS,
} as const;

/** The defaults of what a job sends and checks (the options that set them: config/options.ts). */
export const JOB_DEFAULTS = {
  /**
   * After the last send, in-flight requests may take their deadline plus this to end before the
   * engine aborts them, ms: a request sent at the last moment still gets its whole deadline
   * (runner/engine.ts drainTimeoutFor).
   */
  drainAfterDeadlineMs: 5_000,
  /**
   * `--message-webhook-check`: how long the first send that waits for the bot's reply waits for
   * any forwarded message before every reply wait fails at once, ms (runner/step-waits.ts): the
   * service forwards a message within a second or two.
   */
  messageWebhookCheckMs: 15_000,
  /** `--max-clock-skew`: the service's clock further off than this is a warning, ms (the doctor's clock check, every job's preflight). */
  maxClockSkewMs: 5_000,
} as const;
