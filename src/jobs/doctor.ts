/**
 * `doctor(config, io)`: `droidcheck doctor` as a library call (docs/doctor.md). Checks a target
 * step by step and returns the checklist; exit code 0 when nothing failed (warnings and checks
 * that could not be made are not failures), 2 otherwise. Prints only progress lines (stderr);
 * the checklist is rendered by doctor-render.ts. No token or secret appears in any line.
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
import { randomBytes } from 'node:crypto';
import { listenError } from '../os-errors.js';
import type { Writable } from 'node:stream';
import { Agent } from 'undici';
import { DroidClient } from '../client/index.js';
import type { ResolvedDoctorConfig } from '../config/index.js';
import { createEmulator, type Emulator } from '../emulator/index.js';
import { createReceiver, type Receiver } from '../receiver/index.js';
import { createRedactor, redactValue } from '../redact.js';
import { jobSecrets } from './job-secrets.js';
import {
  check,
  failures,
  networkCheck,
  secretCheck,
  SECRET_ROLES,
  type CheckId,
  type DoctorCheck,
} from './doctor-checks.js';
import type { ProbeTarget } from './doctor-probe.js';
import { roundTrip } from './doctor-round-trip.js';
import { cheapChecks, PROBE_TIMEOUT_MS } from './preflight.js';
import { endpointOf, measureRoundTrip, type NetworkEstimate } from './network.js';

export interface DoctorIO {
  /** Progress lines (redacted). */
  stderr: Writable;
  /** Aborted: stop waiting (SIGINT). */
  signal?: AbortSignal | undefined;
  /** For redaction: every secret of the environment. Default process.env. */
  env?: NodeJS.ProcessEnv;
}

export interface DoctorResult {
  /** `https://svc.example (droid 123)` or `the embedded emulator at http://127.0.0.1:PORT`. */
  target: string;
  checks: DoctorCheck[];
  network: NetworkEstimate | undefined;
  /** 0: nothing failed; 2: a check failed. */
  exitCode: 0 | 2;
}

/** What the doctor talks to. */
interface DoctorTarget {
  probe: ProbeTarget;
  client: DroidClient;
  label: string;
  receiver: Receiver | undefined;
  localUrl: string | undefined;
  webhookUrl: string | undefined;
  /** The message-forwarding URL to configure (the public one behind a tunnel). */
  messagesUrl: string | undefined;
  emulator: Emulator | undefined;
  close(): Promise<void>;
}

async function openDoctorTarget(config: ResolvedDoctorConfig): Promise<DoctorTarget> {
  const needsReceiver = config.roundTrip || config.target.kind === 'emulator';
  // The embedded emulator delivers with a random secret when none is set (as `run` does).
  const secret =
    config.webhookSecret ?? (config.target.kind === 'emulator' ? randomBytes(24).toString('base64url') : null);
  const receiver = needsReceiver
    ? createReceiver({
        host: config.receiverHost,
        port: config.receiverPort,
        secret,
        verifyToken: config.verifyToken ?? null,
      })
    : undefined;
  // The user's --receiver-host/--receiver-port: a port in use or a foreign address is exit 2.
  const localUrl = receiver
    ? await receiver.listen().catch(async (err: unknown) => {
        await receiver.close().catch(() => undefined);
        throw listenError(
          err,
          { flag: '--receiver-host', value: config.receiverHost },
          { flag: '--receiver-port', value: config.receiverPort },
        );
      })
    : undefined;
  const webhookUrl = config.publicUrl ?? localUrl;
  // Behind a tunnel the routes share its origin: <public>/webhook, <public>/messages.
  const localMessages = receiver?.urls()?.messages;
  const messagesUrl =
    localMessages && config.publicUrl
      ? new URL(new URL(localMessages).pathname, config.publicUrl).toString()
      : localMessages;
  const dispatcher = new Agent({ keepAliveTimeout: 10_000 });
  let emulator: Emulator | undefined;
  try {
    let baseUrl: string;
    let droidId: string | number;
    let token: string | undefined;
    if (config.target.kind === 'emulator') {
      emulator = await createEmulator({ webhookUrl: webhookUrl ?? null, webhookSecret: secret });
      baseUrl = await emulator.listen();
      ({ droidId, token } = emulator);
    } else {
      ({ baseUrl, droidId, token } = config.target);
    }
    const probe: ProbeTarget = { baseUrl, droidId, token, dispatcher, timeoutMs: PROBE_TIMEOUT_MS };
    const client = new DroidClient({ baseUrl, droidId, token: token ?? '', dispatcher });
    const label = emulator ? `the embedded emulator at ${baseUrl} (droid ${droidId})` : `${baseUrl} (droid ${droidId})`;
    return {
      probe,
      client,
      label,
      receiver,
      localUrl,
      webhookUrl,
      messagesUrl,
      emulator,
      async close() {
        await emulator?.close();
        await dispatcher.close();
        await receiver?.close();
      },
    };
  } catch (err) {
    await emulator?.close();
    await dispatcher.close();
    await receiver?.close();
    throw err;
  }
}

const ORDER: readonly CheckId[] = [
  'reachable',
  'api',
  'token',
  'droid',
  'async-settings',
  'test-customer',
  'answer-webhook',
  'webhook-secret',
  'verify-token',
  'intent-secret',
  'clock',
  'network',
  'round-trip',
  'message-webhook',
];

/** The round trip (and the message webhook after it), or a skip when the cheap checks did not pass. */
async function roundTripChecks(
  config: ResolvedDoctorConfig,
  io: DoctorIO,
  t: DoctorTarget,
  accessOk: boolean,
  network: NetworkEstimate | undefined,
  log: (line: string) => void,
  checks: Map<CheckId, DoctorCheck>,
): Promise<void> {
  const ready = accessOk && t.receiver && t.webhookUrl && t.localUrl;
  if (!ready)
    checks.set(
      'round-trip',
      check('round-trip', 'skip', 'needs a reachable target that accepts the token and the droid'),
    );
  else {
    const messages = t.emulator
      ? { skip: 'the embedded emulator forwards the messages of send only (run wires it to the receiver)' }
      : { withinMs: config.messageWebhookCheckMs, url: t.messagesUrl ?? '/messages of the receiver' };
    const rt = await roundTrip({
      client: t.client,
      receiver: t.receiver!,
      webhookUrl: t.webhookUrl!,
      localUrl: t.localUrl!,
      baseUrl: t.probe.baseUrl,
      droidId: t.probe.droidId,
      timeoutMs: config.timeoutMs,
      rttMs: network?.rttMs,
      signal: io.signal,
      log,
      messages,
    });
    for (const c of rt.settled) checks.set(c.id, c);
    checks.set('round-trip', rt.roundTrip);
    if (rt.messageWebhook) checks.set('message-webhook', rt.messageWebhook);
  }
}

/**
 * Runs the checklist against `config.target` (module docs). Throws only for droidcheck's own
 * failures (the embedded emulator or the receiver cannot start: e.g. `--receiver-port` taken).
 */
export async function doctor(config: ResolvedDoctorConfig, io: DoctorIO): Promise<DoctorResult> {
  let redact = createRedactor(jobSecrets(config, io.env ?? process.env));
  const log = (line: string): void => void io.stderr.write(`${redact(line)}\n`);
  const t = await openDoctorTarget(config);
  redact = createRedactor(jobSecrets(config, io.env ?? process.env, t.emulator?.token));
  const checks = new Map<CheckId, DoctorCheck>();
  let network: NetworkEstimate | undefined;
  try {
    if (t.emulator && t.webhookUrl) log(`droidcheck doctor: ${t.label}, answer webhook ${t.webhookUrl}`);
    else if (t.webhookUrl)
      log(`droidcheck doctor: ${t.label}; configure the service's answer webhook URL as ${t.webhookUrl}`);
    const cheap = await cheapChecks({
      target: t.probe,
      maxClockSkewMs: config.maxClockSkewMs,
      webhookUrl: t.webhookUrl,
      signal: io.signal,
    });
    for (const c of cheap.checks) checks.set(c.id, c);
    const values = {
      'webhook-secret': config.webhookSecret,
      'verify-token': config.verifyToken,
      'intent-secret': config.intentSecret,
    };
    for (const role of SECRET_ROLES) {
      const c = secretCheck(role, values[role.id], t.emulator !== undefined);
      if (c) checks.set(c.id, c);
    }
    const { host, port } = endpointOf(t.probe.baseUrl);
    let problem: string | undefined;
    if (cheap.tcp.ok)
      network = await measureRoundTrip(t.probe.baseUrl, { signal: io.signal }).catch(
        (err: Error) => ((problem = err.message), undefined),
      );
    checks.set('network', networkCheck(network, problem, `${host}:${port}`, t.emulator === undefined));
    if (config.roundTrip) await roundTripChecks(config, io, t, cheap.accessOk, network, log, checks);
  } finally {
    await t.close();
  }
  const list = ORDER.map((id) => checks.get(id)).filter((c): c is DoctorCheck => c !== undefined);
  const result: DoctorResult = { target: t.label, checks: list, network, exitCode: failures(list).length > 0 ? 2 : 0 };
  return redactValue(result, redact);
}
