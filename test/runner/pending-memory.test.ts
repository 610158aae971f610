/**
 * The memory guard of pending answers: what one async request retains while its webhook is
 * awaited, in the engine (open model), the client and the receiver as `droidcheck load` wires
 * them. A load holds tens of thousands of these at once (1,000/s with 60 s answers: 60,000), so
 * a change that makes each one heavier by 1 KB costs 60 MB: this test fails it.
 *
 * How: a real target on 127.0.0.1 acknowledges every request with a fresh requestId and never
 * answers (it keeps nothing per request); the load sends BATCH requests, is held (its source
 * gives nothing), sends BATCH more. The heap is read after forced full collections once each
 * batch is pending; the difference divided by BATCH is the heap each pending request retains
 * (the run's fixed costs, histograms, connections, compiled code, are in both readings). The
 * engine gets what a job gives it by default (a trace context per conversation).
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DroidClient } from '../../src/client/index.js';
import { PENDING_REQUEST_BYTES } from '../../src/config/index.js';
import { createReceiver, type Receiver } from '../../src/receiver/index.js';
import { headerTracer, MixSource, runEngine } from '../../src/runner/index.js';
import type { RequestSource } from '../../src/runner/source.js';
import type { PlannedRequest } from '../../src/runner/types.js';
import { HANG_MS } from '../helpers/hang.js';
import { scenario, suiteOf } from '../helpers/engine.js';

/** Pending requests per reading: thousands, so that the noise of a collection is a few bytes each. */
const BATCH = 4_000;
/**
 * Room over the figure the in-flight cap's message states (PENDING_REQUEST_BYTES) for the noise
 * between runs (a hash table or an array doubling at a different point, code compiled between the
 * readings): measured over repeated runs within about 100 B, so 1 KB more per request fails.
 */
const NOISE_BYTES = 300;

/** A source that hands out requests only while `allowed` > 0 (each take spends one). */
class HeldSource implements RequestSource {
  readonly kind = 'mix' as const;
  readonly planned = undefined;
  allowed = 0;
  constructor(readonly inner: MixSource) {}
  take(): PlannedRequest[] {
    if (this.allowed <= 0) return [];
    this.allowed -= 1;
    return this.inner.take();
  }
  release(p: PlannedRequest): void {
    this.inner.release(p);
  }
  giveBack(): void {}
  unsent(): PlannedRequest[] {
    return [];
  }
  hasAsync(): boolean {
    return this.inner.hasAsync();
  }
}

let target: Server;
let receiver: Receiver;
let dispatcher: Agent;
let client: DroidClient;

beforeAll(async () => {
  let n = 0;
  // Acknowledges at once with a requestId of the service's shape (`tpa-` and 24 characters).
  target = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      n += 1;
      const id = `tpa-memoryguard0${n.toString(36).padStart(11, '0')}`;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(`{"success":true,"requestId":"${id}","message":"Processing started"}`);
    });
  });
  target.listen(0, '127.0.0.1');
  await once(target, 'listening');
  receiver = createReceiver({ secret: 'memory-guard-secret-0123456789abcdef' });
  await receiver.listen();
  // A bounded pool, opened by the first batch: the second opens no connection of its own.
  dispatcher = new Agent({ keepAliveTimeout: 60_000, connections: 16 });
  client = new DroidClient({
    baseUrl: `http://127.0.0.1:${(target.address() as AddressInfo).port}`,
    droidId: 1,
    token: 'memory-guard-token',
    dispatcher,
  });
});

afterAll(async () => {
  await receiver?.close();
  await dispatcher?.close();
  target?.close();
});

describe('memory per pending async request', () => {
  it(`stays within the stated ${PENDING_REQUEST_BYTES} B (+${NOISE_BYTES} B of noise) of heap per request awaiting its webhook`, async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const suite = suiteOf(
      scenario('orders scarves', {
        modes: ['async'],
        humanMessage: 'I want 2 silk scarves delivered to 12 Sukhumvit Rd, Bangkok 10110',
      }),
    );
    const source = new HeldSource(MixSource.of([suite], { seed: 1 }));
    const stop = new AbortController();
    const abort = new AbortController();
    const run = runEngine({
      source,
      scheduler: {
        kind: 'open',
        startRate: 2_000,
        stages: [{ durationMs: 10 * HANG_MS, target: 2_000 }],
        maxInFlight: 5 * BATCH,
        maxRequests: 4 * BATCH,
      },
      client,
      receiver,
      timeoutMs: 100 * HANG_MS,
      // The last requests of the second batch may still await their acknowledgement when the
      // source's last one is taken: nothing is aborted before the test is done.
      drainTimeoutMs: 100 * HANG_MS,
      skipGraded: true,
      // As a job sends by default: a trace context per conversation, its headers on every call.
      tracer: headerTracer(),
      traceContext: true,
      stopSignal: stop.signal,
      abortSignal: abort.signal,
    });
    /** Lets `BATCH` more requests go, waits until all of them await their webhook; the heap then. */
    const heapWith = async (pending: number): Promise<number> => {
      source.allowed = BATCH;
      await expect.poll(() => receiver.pendingCount(), { timeout: HANG_MS, interval: 20 }).toBe(pending);
      gc();
      gc();
      return process.memoryUsage().heapUsed;
    };
    try {
      // Four readings, three batches' growth, their median: this worker's heap also holds what
      // the files before this one left (isolate: false), and a collection of their leftovers
      // between two readings once made one batch's growth negative.
      const readings: number[] = [];
      for (let k = 1; k <= 4; k++) readings.push(await heapWith(k * BATCH));
      const growth = readings
        .slice(1)
        .map((r, i) => (r - readings[i]!) / BATCH)
        .sort((a, b) => a - b);
      const perRequest = growth[1]!;
      expect(receiver.pendingCount()).toBe(4 * BATCH);
      expect(
        perRequest,
        `heap per pending request ${perRequest.toFixed(0)} B (each batch: ${growth.map((g) => g.toFixed(0)).join(', ')} B)`,
      ).toBeLessThanOrEqual(PENDING_REQUEST_BYTES + NOISE_BYTES);
      // A reading that retained nothing per request measured nothing (the requests ended early).
      expect(perRequest).toBeGreaterThan(100);
    } finally {
      stop.abort();
      abort.abort();
      await run;
    }
  });
});
