/**
 * Memory: heap per in-flight async request while --pending requests wait for their webhook
 * (the emulator, in a child process, delays every answer by 10 minutes), and RSS at the end.
 * Target: <= 2 KB of heap per pending request with 100,000 pending.
 * Usage: node --expose-gc bench/memory.js [--pending 100000] [--rate 5000]
 */
// As the CLI runs (cli/main.ts): one tick object kept alive, imported first (src/tick-shape.ts).
import '../dist/tick-shape.js';
import { fileURLToPath } from 'node:url';
import { Agent } from 'undici';
import { createReceiver, DroidClient, loadSuites, tuneHeapForPendingRequests } from '../dist/index.js';
import { MixSource, runEngine } from '../dist/runner/index.js';
import { arg, boxLoad, startEmulatorChild } from './lib.js';

// The open model's V8 heap flags, as `droidcheck load` sets them (src/v8-flags.ts).
tuneHeapForPendingRequests();

if (!globalThis.gc) {
  console.error('run with node --expose-gc bench/memory.js');
  process.exit(2);
}
const pending = arg('pending', 100_000);
const rate = arg('rate', 5000);
const receiver = createReceiver({ secret: null });
const webhookUrl = await receiver.listen();
const emu = await startEmulatorChild({ webhookUrl, answerDelayMs: 600_000 });
const dispatcher = new Agent({ connections: 256, keepAliveTimeout: 60_000 });
const client = new DroidClient({ baseUrl: emu.baseUrl, droidId: emu.droidId, token: emu.token, dispatcher });
const stop = new AbortController();
const abort = new AbortController();
const suites = await loadSuites([fileURLToPath(new URL('./fixtures/bench.yaml', import.meta.url))]);
console.log(`memory: ${pending} pending async requests opened at ${rate}/s (answers delayed 10 min); ${boxLoad()}`);

gc();
const before = process.memoryUsage();
const run = runEngine({
  source: MixSource.of(suites, { seed: 1 }),
  scheduler: {
    kind: 'open',
    startRate: rate,
    stages: [{ durationMs: (pending / rate) * 1000, target: rate }],
    maxInFlight: pending + 1,
    maxRequests: pending,
  },
  client,
  receiver,
  timeoutMs: 900_000,
  drainTimeoutMs: 1_000,
  skipGraded: true,
  stopSignal: stop.signal,
  abortSignal: abort.signal,
});
// Wait until every request is acknowledged and parked on the receiver.
const t0 = Date.now();
while (receiver.pendingCount() < pending && Date.now() - t0 < (pending / rate) * 1000 * 4 + 30_000)
  await new Promise((r) => setTimeout(r, 500));
gc();
await new Promise((r) => setTimeout(r, 200));
gc();
const during = process.memoryUsage();
const waiting = receiver.pendingCount();
if (waiting < pending)
  console.log(
    `only ${waiting} of ${pending} requests were pending when measured (the emulator or this process fell behind; try a lower --rate)`,
  );
const perRequest = (during.heapUsed - before.heapUsed) / Math.max(1, waiting);
console.log(
  `pending async requests: ${waiting}; heap ${(before.heapUsed / 2 ** 20).toFixed(1)} -> ${(during.heapUsed / 2 ** 20).toFixed(1)} MiB; RSS ${(during.rss / 2 ** 20).toFixed(0)} MiB`,
);
console.log(
  `heap per pending request: ${perRequest.toFixed(0)} B | target 2048 B | ratio ${(perRequest / 2048).toFixed(2)}${perRequest > 2048 ? '  MISSED' : ''}`,
);
stop.abort();
abort.abort();
await run;
await dispatcher.close();
await emu.close();
await receiver.close();
process.exit(0);
