/**
 * The network round trip to a target (docs/architecture.md, Measurements: against a remote
 * target the 100 ms acknowledgement limit, a promise of the server, is judged on ack minus the
 * measured network round trip).
 *
 * Method `tcp-connect`: the fastest of N TCP connects to the target's host and port, after the
 * name was resolved once (DNS is not timed) and after the run's warm-up. A TCP handshake is one
 * network round trip answered by the peer's kernel: no request parsing, no application code, no
 * database. An acknowledgement on a warm keep-alive connection costs one round trip plus the
 * server's time, so `ack - rtt` estimates the server's time (`ackServer`).
 *
 * Why not the fastest warm `GET channels`: that figure holds the server's own time to list the
 * channels (routing, auth, a database read), so subtracting it would credit the server with work
 * it did and could pass an acknowledgement that breaks the 100 ms promise. The TCP figure errs
 * the other way: when a proxy or CDN terminates TCP near the client, the edge-to-origin leg stays
 * in `ackServer` (a stricter verdict, never a kinder one). The fastest of N, not the mean: queueing
 * on the path and on this machine only ever adds time.
 */
import { lookup } from 'node:dns/promises';
import { connect } from 'node:net';
import { AbortedError, TimeoutError, TransportError } from '../../errors.js';

/** report.json `network`: the round-trip estimate of a remote target. */
export interface NetworkEstimate {
  /** Fastest connect, ms (3 decimals). */
  rttMs: number;
  /** Connects measured. */
  samples: number;
  /** How it was measured (module docs). */
  method: 'tcp-connect';
}

export interface RoundTripOptions {
  /** Connects to measure, one after the other. Default 7. */
  samples?: number;
  /** Each connect's deadline, ms. Default TCP_CONNECT_TIMEOUT_MS. */
  timeoutMs?: number;
  signal?: AbortSignal | undefined;
  /** Monotonic ms; default performance.now. */
  now?: () => number;
}

const DEFAULT_RTT_SAMPLES = 7;
/** A TCP connect's deadline, ms: the round trip's samples and the preflight's reachable check. */
export const TCP_CONNECT_TIMEOUT_MS = 5_000;

/** Host (IPv6 brackets removed) and port of an http(s) URL (80 / 443 by default). */
export function endpointOf(baseUrl: string): { host: string; port: number } {
  const url = new URL(baseUrl);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = url.port !== '' ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  return { host, port };
}

/**
 * Time of one TCP connect to `address:port`, ms; the socket is destroyed at once.
 * @throws TransportError (refused, unreachable; `causeCode` e.g. ECONNREFUSED), TimeoutError, AbortedError
 */
export function tcpConnectMs(
  address: string,
  port: number,
  timeoutMs = TCP_CONNECT_TIMEOUT_MS,
  signal?: AbortSignal,
  now: () => number = () => performance.now(),
): Promise<number> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new AbortedError('TCP connect: aborted'));
      return;
    }
    const t0 = now();
    // The socket's own inactivity timeout bounds the connect (its 'timeout' event).
    const socket = connect({ host: address, port, timeout: timeoutMs });
    const done = (err: Error | undefined, ms?: number): void => {
      signal?.removeEventListener('abort', onAbort);
      socket.removeAllListeners();
      socket.on('error', () => undefined);
      socket.destroy();
      if (err) reject(err);
      else resolve(ms!);
    };
    const onAbort = (): void => done(new AbortedError('TCP connect: aborted'));
    socket.once('timeout', () =>
      done(new TimeoutError(`TCP connect to ${address}:${port}: no answer within ${timeoutMs} ms`)),
    );
    signal?.addEventListener('abort', onAbort, { once: true });
    socket.once('connect', () => done(undefined, now() - t0));
    socket.once('error', (err: NodeJS.ErrnoException) =>
      done(
        new TransportError(`TCP connect to ${address}:${port}: ${err.code ?? err.message}`, err.code, { cause: err }),
      ),
    );
  });
}

/** The address `host` resolves to (an IP stays itself). @throws TransportError (ENOTFOUND...) */
export async function resolveHost(host: string): Promise<string> {
  try {
    return (await lookup(host)).address;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new TransportError(`cannot resolve ${host}: ${code ?? String(err)}`, code, { cause: err });
  }
}

const round3 = (n: number): number => Math.round(n * 1000) / 1000;

/**
 * Measures the round trip to `baseUrl`'s host and port (module docs).
 * @throws TransportError / TimeoutError when a connect fails (the target is not reachable), AbortedError
 */
export async function measureRoundTrip(baseUrl: string, opts: RoundTripOptions = {}): Promise<NetworkEstimate> {
  const { host, port } = endpointOf(baseUrl);
  const address = await resolveHost(host);
  const samples = Math.max(1, Math.floor(opts.samples ?? DEFAULT_RTT_SAMPLES));
  let best = Infinity;
  for (let i = 0; i < samples; i++)
    best = Math.min(
      best,
      await tcpConnectMs(address, port, opts.timeoutMs ?? TCP_CONNECT_TIMEOUT_MS, opts.signal, opts.now),
    );
  return { rttMs: round3(best), samples, method: 'tcp-connect' };
}
