/**
 * `webhookPolicy(config, io)`: `droidcheck webhook-policy` as a library call
 * (docs/webhook-policy.md). Sends one async answer per probe (webhook-policy-probes.ts) as the
 * test customer, has the receiver mishandle each one's deliveries on purpose through a response
 * plan, records every attempt's arrival and answer, waits until every probe settled (delivered,
 * or quiet long enough after its last attempt) within `--timeout`, and writes report.json,
 * report.md and report.html with the learned policy (sections/webhook-policy.ts).
 *
 * Target: the embedded emulator (default; its own retry policy from `--webhook-attempts`,
 * `--webhook-backoff`, `--webhook-timeout`, `--webhook-jitter`, reported beside the measured
 * one), or `--base-url`/`--droid-id` with DROID_API_TOKEN, whose answer webhook must point at the
 * receiver (through `--public-url` behind a tunnel). Cost on a real service: one AI answer per probe.
 *
 * Exit code: 0 measured (even partly: `complete` says), 130 interrupted (the partial report is
 * written). A refused first request is SetupError (exit 2): nothing can be measured.
 */
import { randomBytes } from 'node:crypto';
import type { Writable } from 'node:stream';
import { Agent } from 'undici';
import { systemClock, type Clock } from '../clock.js';
import { DroidClient } from '../client/index.js';
import type { ResolvedWebhookPolicyConfig } from '../config/index.js';
import { createEmulator, type Emulator } from '../emulator/index.js';
import { EXIT, SetupError } from '../errors.js';
import { listenError } from '../os-errors.js';
import { createReceiver, ResponsePlan, type Receiver } from '../receiver/index.js';
import { createRedactor, redactValue } from '../redact.js';
import { jobSecrets } from './job-secrets.js';
import { buildReport, createReporter, type ReportDocument, type WebhookPolicyReport } from '../report/index.js';
import { LatencyRecorder } from '../metrics/index.js';
import { webhookPolicySection } from '../report/sections/webhook-policy.js';
import { consoleLines, plainPaint } from '../report/view.js';
import { Tally } from '../runner/index.js';
import { formatMs } from '../units.js';
import { derivePolicy, findings, PROBE_PLANS, quietPeriod, settled, type ProbeState } from './webhook-policy-probes.js';

export interface WebhookPolicyIO {
  /** Progress lines (redacted). */
  stderr: Writable;
  /** The console summary. */
  stdout: Writable;
  /** Aborted: stop waiting, write what was measured (exit 130). */
  signal?: AbortSignal | undefined;
  env?: NodeJS.ProcessEnv;
  /** How often the wait checks the attempts, ms. Default 100. */
  pollMs?: number;
  /** A progress line at most this often, ms. Default 5_000. */
  progressMs?: number;
}

export interface WebhookPolicyResult {
  report: ReportDocument;
  policy: WebhookPolicyReport;
  exitCode: number;
  files: string[];
}

interface Opened {
  client: DroidClient;
  receiver: Receiver;
  plan: ResponsePlan;
  webhookUrl: string;
  label: string;
  emulator: Emulator | undefined;
  close(): Promise<void>;
}

/** The cheapest message: a short greeting, no history. */
const PROBE_MESSAGE = 'Hello';

async function open(config: ResolvedWebhookPolicyConfig, clock: Clock): Promise<Opened> {
  const emulated = config.target.kind === 'emulator' ? config.target.retry : undefined;
  const secret = config.webhookSecret ?? (emulated ? randomBytes(24).toString('base64url') : null);
  const plan = new ResponsePlan({ clock });
  const receiver = createReceiver({
    host: config.receiverHost,
    port: config.receiverPort,
    secret,
    responsePlan: plan,
    clock,
  });
  const localUrl = await receiver.listen().catch(async (err: unknown) => {
    await receiver.close().catch(() => undefined);
    throw listenError(
      err,
      { flag: '--receiver-host', value: config.receiverHost },
      { flag: '--receiver-port', value: config.receiverPort },
    );
  });
  const webhookUrl = config.publicUrl ?? localUrl;
  const dispatcher = new Agent({ keepAliveTimeout: 10_000 });
  let emulator: Emulator | undefined;
  try {
    let baseUrl: string;
    let droidId: string | number;
    let token: string;
    if (emulated) {
      emulator = await createEmulator({
        webhookUrl,
        webhookSecret: secret,
        delivery: {
          attempts: emulated.attempts,
          backoffMs: emulated.backoffMs,
          timeoutMs: emulated.timeoutMs,
          jitter: emulated.jitter,
        },
      });
      baseUrl = await emulator.listen();
      ({ droidId, token } = emulator);
    } else {
      ({ baseUrl, droidId, token } = config.target as Extract<
        ResolvedWebhookPolicyConfig['target'],
        { kind: 'remote' }
      >);
    }
    const client = new DroidClient({ baseUrl, droidId, token, dispatcher });
    const label = emulator ? `the embedded emulator at ${baseUrl} (droid ${droidId})` : `${baseUrl} (droid ${droidId})`;
    return {
      client,
      receiver,
      plan,
      webhookUrl,
      label,
      emulator,
      async close() {
        // Emulator first (no more deliveries), then the receiver (held answers released).
        await Promise.allSettled([emulator?.close(), dispatcher.close()]);
        await receiver.close();
      },
    };
  } catch (err) {
    await Promise.allSettled([emulator?.close(), dispatcher.close()]);
    await receiver.close();
    throw err;
  }
}

/** Sends each probe in turn; its plan is the default while it is on its way (a webhook may beat the ack). */
async function sendProbes(
  o: Opened,
  config: ResolvedWebhookPolicyConfig,
  clock: Clock,
  signal: AbortSignal | undefined,
): Promise<ProbeState[]> {
  const probes: ProbeState[] = [];
  for (const name of config.probes) {
    if (signal?.aborted) break;
    const { steps, after: then } = PROBE_PLANS[name];
    o.plan.setDefault(steps, then);
    // From the request's start: a webhook may arrive before the acknowledgement.
    const sentAt = clock.now();
    try {
      const ack = await o.client.getDroidAnswerAsync(
        { humanMessage: { content: PROBE_MESSAGE, type: 'human' } },
        signal ? { signal } : {},
      );
      const id = (ack.body as { requestId?: unknown } | null)?.requestId;
      if (typeof id !== 'string' || id === '') throw new Error('acknowledged without a requestId');
      o.plan.set(id, steps, then);
      probes.push({ probe: name, requestId: id, sentAt, attempts: o.plan.attempts(id) });
    } catch (err) {
      probes.push({ probe: name, requestId: null, error: (err as Error).message, sentAt, attempts: [] });
    }
  }
  o.plan.setDefault(undefined);
  if (!signal?.aborted && probes.length > 0 && probes.every((p) => p.requestId === null)) {
    throw new SetupError(
      `webhook-policy: the service refused every probe (${probes[0]!.error}); droidcheck doctor --round-trip checks the token, droid, test customer and answer webhook (${o.webhookUrl})`,
    );
  }
  return probes;
}

const sleep = (ms: number, signal: AbortSignal | undefined): Promise<void> =>
  new Promise((resolve) => {
    const t = setTimeout(done, ms);
    function done(): void {
      clearTimeout(t);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });

/** Waits until every probe settled, the deadline, or the signal; progress lines on the way. */
async function waitForSettled(
  probes: ProbeState[],
  config: ResolvedWebhookPolicyConfig,
  clock: Clock,
  io: WebhookPolicyIO,
  log: (s: string) => void,
  deadline: number,
): Promise<number> {
  let lastProgress = clock.now();
  for (;;) {
    const now = clock.now();
    const quiet = quietPeriod(probes, config.quietMs);
    const open = probes.filter((p) => !settled(p, now, quiet));
    if (open.length === 0 || now >= deadline || io.signal?.aborted) return quiet;
    if (now - lastProgress >= (io.progressMs ?? 5_000)) {
      lastProgress = now;
      const total = probes.reduce((n, p) => n + p.attempts.length, 0);
      log(
        `droidcheck webhook-policy: ${total} attempts so far; waiting for ${open.map((p) => `${p.probe} (${p.attempts.length} attempts)`).join(', ')} to settle (quiet ${formatMs(quiet)}); at most ${formatMs(Math.max(0, deadline - now))} more`,
      );
    }
    await sleep(Math.min(io.pollMs ?? 100, Math.max(1, deadline - now)), io.signal);
  }
}

/** The policy the probes show at `end`, with the emulator's configured one beside it, and the findings. */
function policyOf(
  config: ResolvedWebhookPolicyConfig,
  probes: ProbeState[],
  quietMs: number,
  end: number,
  interrupted: boolean,
): WebhookPolicyReport {
  // Interrupted: not complete, even when every probe sent had settled (others were not sent).
  const derived = derivePolicy(probes, quietMs, (p) => settled(p, end, quietMs));
  const figures = { ...derived, complete: derived.complete && !interrupted };
  const emulated = config.target.kind === 'emulator' ? config.target.retry : undefined;
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

/** Runs the probes against `config.target` and writes the reports into `config.reportDir`. */
export async function webhookPolicy(
  config: ResolvedWebhookPolicyConfig,
  io: WebhookPolicyIO,
  clock: Clock = systemClock,
): Promise<WebhookPolicyResult> {
  let redact = createRedactor(jobSecrets(config, io.env ?? process.env));
  const log = (line: string): void => void io.stderr.write(`${redact(line)}\n`);
  const startedAt = clock.wallNow();
  const t0 = clock.now();
  const o = await open(config, clock);
  redact = createRedactor(jobSecrets(config, io.env ?? process.env, o.emulator?.token));
  let probes: ProbeState[] = [];
  let quietMs = config.quietMs;
  let stats: ReturnType<typeof o.receiver.stats> | undefined;
  try {
    log(
      `droidcheck webhook-policy: ${o.label}; answer webhook ${o.webhookUrl}; ${config.probes.length} probes (${config.probes.join(', ')}), one async answer each; waiting at most ${formatMs(config.timeoutMs)}`,
    );
    probes = await sendProbes(o, config, clock, io.signal);
    quietMs = await waitForSettled(probes, config, clock, io, log, t0 + config.timeoutMs);
    stats = o.receiver.stats();
  } finally {
    await o.close();
  }
  const end = clock.now();
  const interrupted = io.signal?.aborted ?? false;
  const policy = policyOf(config, probes, quietMs, end, interrupted);
  const built = buildReport({
    kind: 'webhook-policy',
    startedAt: startedAt.toISOString(),
    finishedAt: clock.wallNow().toISOString(),
    durationMs: Math.round(end - t0),
    settings: {
      target: config.target.kind === 'emulator' ? 'embedded emulator' : config.target.baseUrl,
      probes: config.probes,
      timeoutMs: config.timeoutMs,
      quietMs: config.quietMs,
    },
    tally: new Tally().snapshot(),
    latency: new LatencyRecorder(),
    receiver: stats!,
    interrupted,
    defaultThresholds: false,
    thresholds: [],
    webhookPolicy: policy,
  });
  const report = redactValue({ ...built, exitCode: interrupted ? EXIT.INTERRUPTED : EXIT.OK }, redact);
  const files: string[] = [];
  // The console shows this job's section only (the run sections have no figures here).
  const view = webhookPolicySection.views(report);
  io.stdout.write(
    `${[...view.flatMap((v) => consoleLines(v, plainPaint)), '', `droidcheck webhook-policy: ${report.exitCode === EXIT.INTERRUPTED ? 'interrupted: partial figures' : 'measured'} in ${formatMs(report.durationMs)} · exit ${report.exitCode}`].join('\n')}\n`,
  );
  for (const name of ['json', 'markdown', 'html']) {
    const r = createReporter(name, { outDir: config.reportDir, stdout: io.stdout, color: false, env: {} });
    await r.onRunEnd?.(report);
    files.push(...(r.files ?? []));
  }
  return { report, policy: report.webhookPolicy!, exitCode: report.exitCode, files };
}
