/**
 * `droidcheck emulate`'s configuration, shaped from the values of the one resolution (resolve.ts
 * `resolveEmulateConfig(flags, env)`: its flags and the environment with `.env` under it, through
 * the table of options, options.ts), in the emulator's own option names (emulator/options.ts),
 * which config/ may not import: the CLI reads the profile files and starts the emulator.
 * A value left out is the emulator's default (src/defaults.ts, the table's too).
 */
import { telemetryOf, type ResolvedTelemetry } from './telemetry.js';
import { valuesOf, type ResolvedOptions } from './values.js';

/** The embedded emulator's webhook retry policy (its delivery options): `emulate` and `webhook-policy`. */
export interface EmulatedRetry {
  /** Attempts per delivery, the first included. */
  attempts: number;
  /** ms */
  backoffMs: number;
  /** ms */
  timeoutMs: number;
  /** 0..1 */
  jitter: number;
}

/** `--webhook-attempts`, `--webhook-backoff`, `--webhook-timeout`, `--webhook-jitter`. */
export function emulatedRetry(o: ResolvedOptions): EmulatedRetry {
  const v = o.values;
  return {
    attempts: v.webhookAttempts,
    backoffMs: v.webhookBackoff,
    timeoutMs: v.webhookTimeout,
    jitter: v.webhookJitter,
  };
}

export interface ResolvedEmulateConfig {
  host: string;
  port: number;
  seed: number;
  /** Paths of the emulator profile and the fault profile YAML, as given (the CLI reads them). */
  profile?: string;
  faults?: string;
  droidId?: number;
  /** `--token` or DROID_API_TOKEN; absent: the emulator generates one. Never printed. */
  token?: string;
  testCustomerId?: number | null;
  /** One URL, or several taken in turn (a load balancer in front of several receivers). */
  webhookUrl?: string | string[];
  webhookSecret?: string;
  messageWebhookUrl?: string;
  verifyToken?: string;
  ackDelayMs?: number;
  answerDelayMs?: number;
  rateLimit?: { max: number };
  /** The planted knee (the emulator's degradeAbove): answers in progress above which answers degrade. */
  degradeAbove?: number;
  delivery: EmulatedRetry;
  /** OpenTelemetry export of the emulator's spans (config/telemetry.ts); absent: off. */
  telemetry?: ResolvedTelemetry;
}

/** Emulate's shaping: an option not given is left out (the emulator's default applies). */
export function emulateConfig(o: ResolvedOptions, env: NodeJS.ProcessEnv): ResolvedEmulateConfig {
  const v = o.values;
  const telemetry = telemetryOf(o, env);
  return {
    ...valuesOf(o, [
      'host',
      'port',
      'seed',
      'profile',
      'faults',
      'token',
      'testCustomerId',
      'webhookSecret',
      'messageWebhookUrl',
      'verifyToken',
    ]),
    ...(v.droidId !== undefined && { droidId: Number(v.droidId) }),
    // Several answer-webhook URLs stand in for a load balancer: deliveries take them in turn.
    ...(v.webhookUrl.length > 0 && { webhookUrl: v.webhookUrl.length === 1 ? v.webhookUrl[0]! : v.webhookUrl }),
    ...(v.ackDelay !== undefined && { ackDelayMs: v.ackDelay }),
    ...(v.answerDelay !== undefined && { answerDelayMs: v.answerDelay }),
    ...(v.rateLimit !== undefined && { rateLimit: { max: v.rateLimit } }),
    ...(v.degradeAbove !== undefined && { degradeAbove: v.degradeAbove }),
    // The retry policy (defaults from the table, the emulator's own): webhook-policy measures it.
    delivery: emulatedRetry(o),
    ...(telemetry && { telemetry }),
  };
}
