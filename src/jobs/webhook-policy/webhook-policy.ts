/**
 * `webhookPolicy(config, io)`: `droidcheck webhook-policy` as a library call
 * (docs/webhook-policy.md). Its spec (webhookPolicySpec) through the one pipeline (pipeline.ts):
 * sends one async answer per probe (probes.ts) as the test customer, has the
 * receiver mishandle each one's deliveries on purpose through a response plan (a target option:
 * target.ts), records every attempt's arrival and answer, waits until every probe settled
 * (delivered, or quiet long enough after its last attempt) within `--timeout`, and writes
 * report.json, summary.md and report.html with the learned policy (sections/webhook-policy.ts).
 *
 * Target: the embedded emulator (default; its own retry policy from `--webhook-attempts`,
 * `--webhook-backoff`, `--webhook-timeout`, `--webhook-jitter`, a target option too, reported
 * beside the measured one), or `--base-url`/`--droid-id` with DROID_API_TOKEN, whose answer
 * webhook must point at the receiver (through `--public-url` behind a tunnel); a real service is
 * preflighted as every job's is. Cost on a real service: one AI answer per probe.
 *
 * Exit code: 0 measured (even partly: `complete` says), 130 interrupted (the partial report is
 * written). A refused preflight or every probe refused is SetupError (exit 2): nothing can be measured.
 */
import { systemClock, type Clock } from '../../clock.js';
import type { DroidClient } from '../../client/index.js';
import type { WebhookPolicyConfig } from '../../config/index.js';
import { SetupError } from '../../errors.js';
import { ResponsePlan } from '../../receiver/index.js';
import type { WebhookPolicyReport } from '../../report/index.js';
import { formatMs } from '../../units.js';
import {
  drivenTraffic,
  type JobContext,
  type JobIO,
  type JobOutput,
  type JobResult,
  type JobSpec,
} from '../pipeline/job-spec.js';
import { runJob } from '../pipeline/pipeline.js';
import { derivePolicy, findings, PROBE_PLANS, quietPeriod, settled, type ProbeState } from './probes.js';

/** The cheapest message: a short greeting, no history. */
const PROBE_MESSAGE = 'Hello';
/** How often the wait looks at the attempts, ms: a probe's figures are read from the attempts' own times, not from this. */
const POLL_MS = 100;
/** A progress line at most this often while the probes settle, ms. */
const PROGRESS_MS = 5_000;

/** Sends each probe in turn; its plan is the default while it is on its way (a webhook may beat the ack). */
async function sendProbes(
  client: DroidClient,
  plan: ResponsePlan,
  config: WebhookPolicyConfig,
  clock: Clock,
  signal: AbortSignal | undefined,
  webhookUrl: string | undefined,
): Promise<ProbeState[]> {
  const probes: ProbeState[] = [];
  for (const name of config.webhookPolicy.probes) {
    if (signal?.aborted) break;
    const { steps, after: then } = PROBE_PLANS[name];
    plan.setDefault(steps, then);
    // From the request's start: a webhook may arrive before the acknowledgement.
    const sentAt = clock.now();
    try {
      const ack = await client.getDroidAnswerAsync(
        { humanMessage: { content: PROBE_MESSAGE, type: 'human' } },
        signal ? { signal } : {},
      );
      const id = (ack.body as { requestId?: unknown } | null)?.requestId;
      if (typeof id !== 'string' || id === '') throw new Error('acknowledged without a requestId');
      plan.set(id, steps, then);
      probes.push({ probe: name, requestId: id, sentAt, attempts: plan.attempts(id) });
    } catch (err) {
      probes.push({ probe: name, requestId: null, error: (err as Error).message, sentAt, attempts: [] });
    }
  }
  plan.setDefault(undefined);
  if (!signal?.aborted && probes.length > 0 && probes.every((p) => p.requestId === null)) {
    throw new SetupError(
      `webhook-policy: the service refused every probe (${probes[0]!.error}); droidcheck doctor --round-trip checks the token, droid, test customer and answer webhook (${webhookUrl})`,
    );
  }
  return probes;
}

/** Waits until every probe settled, the deadline, or the signal; progress lines on the way. */
async function waitForSettled(
  probes: ProbeState[],
  config: WebhookPolicyConfig,
  clock: Clock,
  ctx: JobContext,
  deadline: number,
): Promise<number> {
  let lastProgress = clock.now();
  for (;;) {
    const now = clock.now();
    const quiet = quietPeriod(probes, config.webhookPolicy.quietMs);
    const open = probes.filter((p) => !settled(p, now, quiet));
    if (open.length === 0 || now >= deadline || ctx.engine.stopSignal?.aborted) return quiet;
    if (now - lastProgress >= PROGRESS_MS) {
      lastProgress = now;
      const total = probes.reduce((n, p) => n + p.attempts.length, 0);
      ctx.log(
        `droidcheck webhook-policy: ${total} attempts so far; waiting for ${open.map((p) => `${p.probe} (${p.attempts.length} attempts)`).join(', ')} to settle (quiet ${formatMs(quiet)}); at most ${formatMs(Math.max(0, deadline - now))} more`,
      );
    }
    await clock.sleep(Math.min(POLL_MS, Math.max(1, deadline - now)), ctx.engine.stopSignal);
  }
}

/** The policy the probes show at `end`, with the emulator's configured one beside it, and the findings. */
function policyOf(
  config: WebhookPolicyConfig,
  probes: ProbeState[],
  quietMs: number,
  end: number,
  interrupted: boolean,
): WebhookPolicyReport {
  // Interrupted: not complete, even when every probe sent had settled (others were not sent).
  const derived = derivePolicy(probes, quietMs, (p) => settled(p, end, quietMs));
  const figures = { ...derived, complete: derived.complete && !interrupted };
  const emulated = config.target.kind === 'emulator' ? config.webhookPolicy.retry : undefined;
  const withConfigured = emulated
    ? {
        ...figures,
        configured: {
          attempts: emulated.attempts,
          backoffMs: emulated.backoffMs,
          maxBackoffMs: 10_000,
          timeoutMs: emulated.timeoutMs,
          jitter: emulated.jitter,
        },
      }
    : figures;
  return { ...withConfigured, findings: findings(withConfigured) };
}

/** Sends the probes, waits until they settled, and says what policy they show (module docs). */
async function probe(
  config: WebhookPolicyConfig,
  plan: ResponsePlan,
  clock: Clock,
  ctx: JobContext,
): Promise<JobOutput> {
  await ctx.begin(undefined);
  const { probes: names } = config.webhookPolicy;
  ctx.log(
    `droidcheck webhook-policy: ${names.length} probes (${names.join(', ')}), one async answer each; waiting at most ${formatMs(config.timeoutMs)}`,
  );
  const startedAt = clock.wallNow();
  const t0 = clock.now();
  const { client, webhookUrl } = ctx.target;
  const probes = await sendProbes(client, plan, config, clock, ctx.engine.stopSignal, webhookUrl);
  const quietMs = await waitForSettled(probes, config, clock, ctx, t0 + config.timeoutMs);
  const end = clock.now();
  const interrupted = ctx.engine.stopSignal?.aborted ?? false;
  // Its probes are no engine requests: no tally, no latency (the report shows no outcomes).
  const traffic = drivenTraffic({
    startedAt,
    finishedAt: clock.wallNow(),
    durationMs: Math.round(end - t0),
    interrupted,
  });
  return { traffic, sections: { webhookPolicy: policyOf(config, probes, quietMs, end, interrupted) } };
}

/**
 * `webhook-policy` as a spec: reads no suite, sends its probes through a receiver that fails on
 * purpose (`plan`) and an embedded emulator with the configured retries, judges no threshold,
 * and adds the webhook-policy section.
 */
function webhookPolicySpec(config: WebhookPolicyConfig, clock: Clock): JobSpec<WebhookPolicyConfig> {
  const plan = new ResponsePlan({ clock });
  const emulated = config.target.kind === 'emulator' ? config.webhookPolicy.retry : undefined;
  return {
    kind: 'webhook-policy',
    reads: { deal: 'none' },
    judges: { defaultThresholds: false },
    settings: () => ({
      target: config.target.kind === 'emulator' ? 'embedded emulator' : config.target.baseUrl,
      probes: config.webhookPolicy.probes,
      timeoutMs: config.timeoutMs,
      quietMs: config.webhookPolicy.quietMs,
    }),
    target: { responsePlan: plan, clock, ...(emulated && { webhookRetry: emulated }) },
    send: (ctx) => probe(config, plan, clock, ctx),
  };
}

/**
 * Runs the probes against `config.target` and writes the reports into `config.reportDir`; the
 * learned policy is the report's `webhookPolicy` section.
 */
export function webhookPolicy(config: WebhookPolicyConfig, io: JobIO): Promise<JobResult> {
  return runJob(webhookPolicySpec(config, io.clock ?? systemClock), config, io);
}
