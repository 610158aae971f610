/**
 * End to end async: submit, the emulator (child process) answers at once, its webhook is
 * matched by droidcheck's receiver. Open model at --rate for --seconds. Target: >= 6,000
 * answered req/s on 2 cores. Usage: node bench/async-e2e.js [--rate 6000] [--seconds 10]
 */
import { Agent } from 'undici';
import { DroidClient } from '../dist/client/index.js';
import { createReceiver } from '../dist/receiver/index.js';
import { createMix, runLoadEngine } from '../dist/load/index.js';
import { arg, startEmulatorChild, suites, verdict } from './lib.js';

const rate = arg('rate', 6000);
const seconds = arg('seconds', 10);
const receiver = createReceiver({ secret: null });
const webhookUrl = await receiver.listen();
const emu = await startEmulatorChild({ webhookUrl });
const dispatcher = new Agent({ connections: null, keepAliveTimeout: 30_000 });
const client = new DroidClient({ baseUrl: emu.baseUrl, droidId: emu.droidId, token: emu.token, dispatcher });
const { session, model } = await runLoadEngine({
  client,
  receiver,
  mix: createMix(suites(), { mode: 'async' }),
  model: { kind: 'open', startRate: rate, stages: [{ durationMs: seconds * 1000, target: rate }] },
  timeoutMs: 30_000,
  warmupMs: 1000,
  maxInFlight: 50_000,
  progress: { intervalMs: 2000, write: (l) => console.log(l) },
});
const answeredRate = session.stats.outcomes.answered / (model.elapsedMs / 1000 - 1);
const sd = session.sendDelay.summary();
console.log(`async end to end, open model ${rate} req/s for ${seconds} s: sent ${session.stats.sent}, dropped ${session.stats.dropped}, outcomes ${JSON.stringify(session.stats.outcomes)}`);
console.log(`  ack p99 ${session.ctx.latency.summary('ack').p99} ms, answer p99 ${session.ctx.latency.summary('answer').p99} ms, send delay p99 ${sd.p99} ms`);
verdict('droidcheck answered', answeredRate, 6000, 'target', 'req/s', 1);
await dispatcher.close();
await emu.close();
await receiver.close();
