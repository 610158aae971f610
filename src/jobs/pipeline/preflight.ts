/**
 * The cheap checks of a target (docs/doctor.md), shared by `droidcheck doctor` and by `run`,
 * `load` and `capacity` against a remote target, which perform them before sending the suite
 * and exit 2 (SetupError) with the same lines when one fails.
 *
 * What they send (and what that costs on a real service):
 * 1. TCP connect to the base URL's host and port (no HTTP);
 * 2. `GET channels` (spec 1): a read, no side effect;
 * 3. `POST get-droid-answer-async` with a humanMessage without `content` (doctor-probe.ts,
 *    INVALID_ASYNC_BODY): refused with 400 `Invalid humanMessage format` after the token (401)
 *    and droid (403) checks, so nothing is queued and no AI answer is paid for. A service that
 *    checks its settings first answers another 400 instead (the "webhook not configured" or
 *    "missing test customer" one, in whatever words), which fails those checks.
 * Two requests and one TCP handshake in all; nothing is written on the service.
 */
import { Agent } from 'undici';
import { systemClock, type Clock } from '../../clock.js';
import { SetupError } from '../../errors.js';
import type { Suite } from '../../scenario/index.js';
import {
  accessChecks,
  apiCheck,
  asyncConfigChecks,
  asyncNotUsed,
  clockCheck,
  failures,
  reachableCheck,
  secretChecks,
  type DoctorCheck,
  type TcpResult,
} from '../doctor/checks.js';
import { INVALID_ASYNC_BODY, probe, type ProbeResult, type ProbeTarget } from '../doctor/probe.js';
import { checkLines } from '../doctor/render.js';
import type { JobConfig } from './job-spec.js';
import { sendsAsync } from './pre-send.js';
import { endpointOf, resolveHost, TCP_CONNECT_TIMEOUT_MS, tcpConnectMs } from './network.js';

/** Each probe's deadline, ms. */
export const PROBE_TIMEOUT_MS = 10_000;

export interface CheapCheckOptions {
  target: ProbeTarget;
  /** Clock skew past which the clock check warns, ms. */
  maxClockSkewMs: number;
  /** The answer webhook URL to configure, for the fix of a missing webhook. */
  webhookUrl?: string | undefined;
  /**
   * False when the job sends nothing to get-droid-answer-async: the settings only that
   * endpoint needs (answer webhook, test customer; spec 9) are checked but a failure there is a
   * warning (asyncNotUsed). Default true (doctor checks the whole service).
   */
  asyncUsed?: boolean | undefined;
  signal?: AbortSignal | undefined;
}

export interface CheapCheckResult {
  /** reachable, answers JSON, token accepted, droid id, test customer, answer webhook, clock. */
  checks: DoctorCheck[];
  tcp: TcpResult;
  /** Token and droid accepted. */
  accessOk: boolean;
}

async function tcpCheck(target: ProbeTarget, signal: AbortSignal | undefined): Promise<TcpResult> {
  const { host, port } = endpointOf(target.baseUrl);
  const clock = target.clock ?? systemClock;
  try {
    const ms = await tcpConnectMs(await resolveHost(host), port, TCP_CONNECT_TIMEOUT_MS, signal, () => clock.now());
    return { ok: true, ms, host, port };
  } catch (err) {
    return { ok: false, code: (err as { causeCode?: string }).causeCode, message: (err as Error).message, host, port };
  }
}

/** Runs the cheap checks (module docs) against `o.target`. Never throws for the target's behaviour. */
export async function cheapChecks(o: CheapCheckOptions): Promise<CheapCheckResult> {
  const tcp = await tcpCheck(o.target, o.signal);
  const channels: ProbeResult | undefined = tcp.ok ? await probe(o.target, 'GET', '/channels') : undefined;
  // POST only to what answered as a JSON API (never to a web page that happens to be there).
  const api = channels?.kind === 'answer' && channels.json !== undefined;
  const asyncProbe = api ? await probe(o.target, 'POST', '/get-droid-answer-async', INVALID_ASYNC_BODY) : undefined;
  const access = accessChecks(o.target.token !== undefined, [channels, asyncProbe]);
  const asyncChecks = asyncConfigChecks(asyncProbe, access, o.webhookUrl);
  const checks = [
    reachableCheck(tcp, channels),
    apiCheck(channels),
    ...access,
    ...(o.asyncUsed === false ? asyncNotUsed(asyncChecks) : asyncChecks),
    clockCheck(channels, o.maxClockSkewMs),
  ];
  return { checks, tcp, accessOk: access.every((c) => c.status === 'pass') };
}

/**
 * True when some request of the job goes to get-droid-answer-async: an answer turn (a plain
 * scenario, a `say` step, a simulated customer) in async mode (runner/plan.ts modesFor: `--mode`
 * wins over a scenario's `modes`), ack-only included. Call steps use neither answer endpoint.
 * Without the suites (the red team), whatever `--mode` does not rule out.
 */
function usesAsyncEndpoint(config: JobConfig, suites: readonly Suite[] | undefined): boolean {
  if (suites === undefined) return config.mode !== 'sync';
  return suites.some((s) => s.scenarios.some((sc) => sendsAsync(sc, config.mode)));
}

/** The receiver's answer-webhook URL when its port is fixed and its host is one to configure (not 0.0.0.0 / ::). */
function fixedReceiverUrl(config: JobConfig): string | undefined {
  const host = config.receiverHost;
  if (config.receiverPort === 0 || host === '0.0.0.0' || host === '::') return undefined;
  return `http://${host.includes(':') ? `[${host}]` : host}:${config.receiverPort}/webhook`;
}

/**
 * The preflight of `run`, `load` and `capacity` against a remote target (nothing for the
 * emulator): the cheap checks, warnings as log lines (and secrets shorter than advised), and
 * SetupError (DROIDCHECK_ERR_SETUP, exit 2) naming each failed check and its fix before
 * anything of the suite is sent. What needs no network (a receiver the service cannot reach,
 * models, thresholds) was refused before by pre-send.ts; a token that is not set or too short,
 * by resolveConfig (ConfigError, exit 2). Given the job's `suites`, a job that sends nothing to
 * get-droid-answer-async (usesAsyncEndpoint) is only warned about that endpoint's settings.
 */
export async function preflight(
  config: JobConfig,
  log: (line: string) => void,
  signal?: AbortSignal,
  suites?: readonly Suite[],
  clock?: Clock,
): Promise<void> {
  if (config.target.kind !== 'remote') return;
  const { baseUrl, droidId, token } = config.target;
  const dispatcher = new Agent({ connections: 1 });
  let checks: DoctorCheck[];
  try {
    ({ checks } = await cheapChecks({
      target: {
        baseUrl,
        droidId,
        token,
        dispatcher,
        timeoutMs: PROBE_TIMEOUT_MS,
        clock,
        traceContext: config.traceContext,
      },
      maxClockSkewMs: config.maxClockSkewMs,
      webhookUrl: config.publicUrl ?? fixedReceiverUrl(config),
      // Only what the job uses is required: a job that sends nothing to the async endpoint
      // needs neither its answer webhook nor its test customer.
      asyncUsed: usesAsyncEndpoint(config, suites),
      signal,
    }));
  } finally {
    await dispatcher.close();
  }
  // Unset secrets are said elsewhere (pipeline.ts); here only the advised length.
  checks.push(...secretChecks(config, false, false).filter((c) => c.status !== 'pass'));
  for (const c of checks.filter((x) => x.status === 'warn'))
    log(`droidcheck: preflight: ${checkLines(c).join(' ').replace(/\s+/g, ' ').trim()}`);
  const failed = failures(checks);
  if (failed.length > 0) {
    throw new SetupError(
      `preflight against ${baseUrl} (droid ${droidId}) failed; nothing was sent:\n${failed.flatMap((c) => checkLines(c)).join('\n')}\n(droidcheck doctor --base-url ${baseUrl} --droid-id ${droidId} prints the whole checklist)`,
    );
  }
}
