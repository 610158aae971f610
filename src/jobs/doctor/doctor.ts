/**
 * `doctor(config, io)`: `droidcheck doctor` as a library call (docs/doctor.md). Checks a target
 * step by step, writes the checklist to `io.stdout` (render.ts) and resolves it as its report;
 * exit code 0 when nothing failed (warnings and checks that could not be made are not failures),
 * 2 otherwise. Progress lines go to `io.stderr`. No token or secret appears in any line.
 *
 * Checks, in order (how each probes: preflight.ts, doctor-probe.ts):
 * reachable (TCP connect, then any HTTP answer to `GET channels`), answers JSON, token accepted
 * (401), droid id (403), test customer and answer webhook (the async endpoint's 400s, from a
 * deliberately invalid request that queues nothing), webhook secret, verify token and intent
 * secret (set, at least 8 characters, 32 advised), clock (skew from the `Date` header), network
 * round trip (network.ts), and with `--round-trip` one real async request whose webhook must
 * reach the receiver, and any forwarded message on the receiver's /messages within
 * `--message-webhook-check` (doctor-round-trip.ts).
 *
 * Why the invalid request cannot prove the two settings: a service that validates the body
 * before its settings (the embedded emulator does) answers `Invalid humanMessage format`
 * whatever they are; only a service that checks its settings first reveals a missing one. Any
 * 400 but `Invalid humanMessage format` fails (the setting it names, read by meaning, or "async
 * settings"); after that one both stay "not checked" until `--round-trip`.
 *
 * Target: the embedded emulator (default, wired to a local receiver, so the doctor can be tried
 * with no account) or `--base-url`/`--droid-id` with `DROID_API_TOKEN`.
 */
import { Agent } from 'undici';
import { systemClock, type Clock } from '../../clock.js';
import type { ResolvedDoctorConfig } from '../../config/index.js';
import { createRedactor, redactValue } from '../../redact.js';
import { jobSecrets } from '../pipeline/job-secrets.js';
import type { JobIO, JobResult } from '../pipeline/job-spec.js';
import { check, type DoctorCheck, failures, inOrder, networkCheck, secretChecks } from './checks.js';
import type { ProbeTarget } from './probe.js';
import { renderDoctorReport } from './render.js';
import { roundTrip } from './round-trip.js';
import { cheapChecks, PROBE_TIMEOUT_MS } from '../pipeline/preflight.js';
import { endpointOf, measureRoundTrip, type NetworkEstimate } from '../pipeline/network.js';
import { openTarget, type Target } from '../pipeline/target.js';

/** The doctor's report: the checklist of one target. */
export interface DoctorReport {
  /** `https://svc.example (droid 123)` or `the embedded emulator at http://127.0.0.1:PORT`. */
  target: string;
  checks: DoctorCheck[];
  network: NetworkEstimate | undefined;
}

/** What the doctor talks to: the target's probe (its own connections), and the one target set-up when it needs a receiver. */
interface DoctorTarget {
  probe: ProbeTarget;
  label: string;
  /** Opened (target.ts openTarget) for the embedded emulator or `--round-trip`; undefined otherwise. */
  opened: Target | undefined;
  close(): Promise<void>;
}

/**
 * Opens what the checks need: against a real service without `--round-trip`, only the probe's
 * connections (no receiver binds `--receiver-port`); otherwise the target every job opens
 * (target.ts), the embedded emulator delivering with a random secret when none is set (as `run`
 * does). Throws UsageError (exit 2) for a receiver address or port this machine cannot bind.
 */
async function openDoctorTarget(config: ResolvedDoctorConfig, clock: Clock): Promise<DoctorTarget> {
  const needsReceiver = config.roundTrip || config.target.kind === 'emulator';
  const dispatcher = new Agent({ keepAliveTimeout: 10_000 });
  const opened = needsReceiver
    ? await openTarget(
        {
          ...config,
          target:
            config.target.kind === 'remote' ? { ...config.target, token: config.target.token ?? '' } : config.target,
          // The intent webhooks are no check of the doctor's: none is wired to the emulator.
          intentSecret: null,
        },
        undefined,
        { clock },
      ).catch(async (err: unknown) => {
        await dispatcher.close();
        throw err;
      })
    : undefined;
  const baseUrl = opened?.baseUrl ?? (config.target as { baseUrl: string }).baseUrl;
  const droidId = opened?.emulator?.droidId ?? (config.target as { droidId: string }).droidId;
  const token = opened?.emulator?.token ?? (config.target.kind === 'remote' ? config.target.token : undefined);
  const probe: ProbeTarget = { baseUrl, droidId, token, dispatcher, timeoutMs: PROBE_TIMEOUT_MS, clock };
  const label = opened?.emulator
    ? `the embedded emulator at ${baseUrl} (droid ${droidId})`
    : `${baseUrl} (droid ${droidId})`;
  return {
    probe,
    label,
    opened,
    async close() {
      await opened?.close();
      await dispatcher.close();
    },
  };
}

/**
 * The round trip (and the checks it settles, and the message webhook after it), or a skip when
 * the cheap checks did not pass.
 */
async function roundTripChecks(
  config: ResolvedDoctorConfig,
  io: JobIO,
  t: DoctorTarget,
  accessOk: boolean,
  network: NetworkEstimate | undefined,
  log: (line: string) => void,
): Promise<DoctorCheck[]> {
  const o = t.opened;
  if (!accessOk || !o?.webhookUrl || !o.localUrl)
    return [check('round-trip', 'skip', 'needs a reachable target that accepts the token and the droid')];
  const messages = o.emulator
    ? { skip: 'the embedded emulator forwards the messages of send only (run wires it to the receiver)' }
    : { withinMs: config.messageWebhookCheckMs, url: o.messagesUrl ?? '/messages of the receiver' };
  const rt = await roundTrip({
    client: o.client,
    receiver: o.receiver,
    webhookUrl: o.webhookUrl,
    localUrl: o.localUrl,
    baseUrl: t.probe.baseUrl,
    droidId: t.probe.droidId,
    timeoutMs: config.timeoutMs,
    rttMs: network?.rttMs,
    signal: io.stopSignal,
    clock: io.clock ?? systemClock,
    log,
    messages,
  });
  return [...rt.settled, rt.roundTrip, ...(rt.messageWebhook ? [rt.messageWebhook] : [])];
}

/**
 * Runs the checklist against `config.target` (module docs). Throws only for droidcheck's own
 * failures (the embedded emulator or the receiver cannot start: e.g. `--receiver-port` taken).
 */
export async function doctor(config: ResolvedDoctorConfig, io: JobIO): Promise<JobResult<DoctorReport>> {
  const signal = io.stopSignal;
  const clock = io.clock ?? systemClock;
  let redact = createRedactor(jobSecrets(config, io.env ?? process.env));
  const log = (line: string): void => void io.stderr.write(`${redact(line)}\n`);
  const t = await openDoctorTarget(config, clock);
  const emulated = t.opened?.emulator !== undefined;
  const webhookUrl = t.opened?.webhookUrl;
  redact = createRedactor(jobSecrets(config, io.env ?? process.env, t.opened?.emulator?.token));
  const checks: DoctorCheck[] = [];
  let network: NetworkEstimate | undefined;
  try {
    if (emulated && webhookUrl) log(`droidcheck doctor: ${t.label}, answer webhook ${webhookUrl}`);
    else if (webhookUrl)
      log(`droidcheck doctor: ${t.label}; configure the service's answer webhook URL as ${webhookUrl}`);
    const cheap = await cheapChecks({
      target: t.probe,
      maxClockSkewMs: config.maxClockSkewMs,
      webhookUrl,
      signal,
    });
    checks.push(...cheap.checks);
    checks.push(...secretChecks({ target: config.target, ...config.secretsSet }, emulated));
    const { host, port } = endpointOf(t.probe.baseUrl);
    let problem: string | undefined;
    if (cheap.tcp.ok)
      network = await measureRoundTrip(t.probe.baseUrl, { signal, now: () => clock.now() }).catch(
        (err: Error) => ((problem = err.message), undefined),
      );
    checks.push(networkCheck(network, problem, `${host}:${port}`, !emulated));
    // The round trip's verdicts on the test customer and the answer webhook replace the cheap checks' (inOrder).
    if (config.roundTrip) checks.push(...(await roundTripChecks(config, io, t, cheap.accessOk, network, log)));
  } finally {
    await t.close();
  }
  const list = inOrder(checks);
  const report = redactValue({ target: t.label, checks: list, network }, redact);
  const exitCode = failures(list).length > 0 ? 2 : 0;
  io.stdout.write(renderDoctorReport({ ...report, exitCode }));
  return { report, exitCode, files: [] };
}
