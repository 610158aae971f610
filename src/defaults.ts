/**
 * The embedded emulator's own defaults, stated once (leaf module: it imports nothing of ours).
 * Two parts read them and may not import each other (docs/architecture.md, Layout): the emulator
 * (emulator/options.ts fills an option left out with them) and the table of options
 * (config/options.ts: the defaults of `droidcheck emulate`'s flags and of `webhook-policy`'s
 * `--webhook-*` flags, which configure the embedded emulator), so `droidcheck emulate`, an
 * emulator created through the API and docs/options.md cannot disagree.
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

export const EMULATOR_DEFAULTS = {
  /** The address it listens on: this machine only. */
  host: '127.0.0.1',
  /** 0: any free port (the URL says which). */
  port: 0,
  /** Seed of every random draw (faults, jitter): the same seed, the same draws. */
  seed: 1,
  delivery: EMULATOR_DELIVERY_DEFAULTS,
} as const;
