/**
 * End to end async: submit, the emulator (child process) answers at once, its webhook is
 * matched by droidcheck's receiver; the engine's open model at --rate for --seconds (a 1 s
 * warm-up excluded), as `droidcheck load --rate` runs it. Prints the answered rate, the
 * latencies, the send delay and the generator's CPU per answered request.
 * Target: >= 6,000 answered req/s on 2 cores.
 *
 *   npm run build && node bench/async-e2e.js [--rate 2000] [--seconds 6]
 *
 * Bounded: --seconds + the drain (deadline 30 s).
 */
// As the CLI runs (cli/main.ts): one tick object kept alive, imported first (src/tick-shape.ts).
import '../dist/tick-shape.js';
import { fileURLToPath } from 'node:url';
import { Agent } from 'undici';
import { createReceiver, DroidClient, loadSuites, tuneHeapForPendingRequests } from '../dist/index.js';
import { MixSource, runEngine } from '../dist/runner/index.js';
import { arg, boxLoad, SECRET, startEmulatorChild, verdict } from './lib.js';

// The open model's V8 heap flags, as `droidcheck load` sets them (src/v8-flags.ts).
tuneHeapForPendingRequests();

const rate = arg('rate', 2000);
const seconds = arg('seconds', 6);
const receiver = createReceiver({ secret: SECRET });
const webhookUrl = await receiver.listen();
const emu = await startEmulatorChild({ webhookUrl, webhookSecret: SECRET });
const dispatcher = new Agent({ connections: null, keepAliveTimeout: 30_000 });
const client = new DroidClient({ baseUrl: emu.baseUrl, droidId: emu.droidId, token: emu.token, dispatcher });
const suites = await loadSuites([fileURLToPath(new URL('./fixtures/bench.yaml', import.meta.url))]);
console.log(
  `async end to end, open model ${rate} req/s for ${seconds} s (1 s warm-up), emulator in a child process; ${boxLoad()}`,
);
const cpu0 = process.cpuUsage();
const engine = await runEngine({
  source: MixSource.of(suites, { seed: 1 }),
  scheduler: {
    kind: 'open',
    startRate: rate,
    stages: [{ durationMs: seconds * 1000, target: rate }],
    maxInFlight: 50_000,
  },
  client,
  receiver,
  timeoutMs: 30_000,
  warmupMs: 1000,
  skipGraded: true,
});
const cpu = process.cpuUsage(cpu0);
const answeredRate = engine.tally.outcomes.answered / (engine.measuredMs / 1000);
const sd = engine.sendDelay?.summary();
const all = engine.counts.sent + engine.counts.warmupSent;
console.log(
  `  sent ${engine.counts.sent} (+${engine.counts.warmupSent} warm-up), dropped ${engine.counts.dropped}, outcomes ${JSON.stringify(Object.fromEntries(Object.entries(engine.tally.outcomes).filter(([, n]) => n > 0)))}`,
);
console.log(
  `  ack p99 ${engine.latency.percentileMs('ack', 99).toFixed(1)} ms, answer p99 ${engine.latency.percentileMs('answer', 99).toFixed(1)} ms, send delay p99 ${sd?.p99.toFixed(1)} ms; generator CPU ${((cpu.user + cpu.system) / all) | 0} us per request (receiver included)`,
);
verdict('droidcheck answered', answeredRate, 6000, 'target', 'req/s', 1);
await dispatcher.close();
await emu.close();
await receiver.close();
