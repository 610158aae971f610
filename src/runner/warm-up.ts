/**
 * Connection warm-up before measuring: opens up to `connections` keep-alive connections with a
 * read-only call (`GET channels`, spec endpoint 1), so the first measured requests pay neither
 * the TCP handshake nor cold code paths, as wrk and autocannon connect before they measure.
 * Its results are not recorded; its errors are ignored (the run will report them).
 */
import type { DroidClient } from '../client/index.js';
import { newTraceparent } from './trace.js';

/** `traceContext`: each call carries a `traceparent` of its own (runner/trace.ts), as every call to the service does. */
export async function warmUpConnections(
  client: DroidClient,
  connections: number,
  signal?: AbortSignal,
  traceContext = true,
): Promise<void> {
  const n = Math.max(1, Math.min(connections, 64));
  const opts = signal ? { signal, timeoutMs: 10_000 } : { timeoutMs: 10_000 };
  await Promise.allSettled(
    Array.from({ length: n }, () =>
      client.channels(traceContext ? { ...opts, trace: { traceparent: newTraceparent() } } : opts),
    ),
  );
}
