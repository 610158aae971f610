/**
 * Closed model on the acknowledgement path: droidcheck (`--ack-only`, closed model) vs
 * autocannon 8, same emulator route (POST get-droid-answer-async), same connection count.
 * Target: droidcheck >= 0.9x autocannon. Usage: node bench/ack-closed.js [--connections 64] [--seconds 10]
 */
import autocannon from 'autocannon';
import { Agent } from 'undici';
import { DroidClient } from '../dist/client/index.js';
import { createMix, runLoadEngine } from '../dist/load/index.js';
import { arg, ASYNC_BODY, drained, startEmulatorChild, suites, verdict } from './lib.js';

const connections = arg('connections', 64);
const seconds = arg('seconds', 10);
const emu = await startEmulatorChild();
const url = `${emu.baseUrl}/api/droids/${emu.droidId}/endpoint/get-droid-answer-async`;
const headers = { authorization: `Bearer ${emu.token}`, 'content-type': 'application/json' };

// Warm the emulator's JIT once, unmeasured.
await autocannon({ url, method: 'POST', headers, body: ASYNC_BODY, connections, duration: 2 });
await drained(emu);
const ac = await autocannon({ url, method: 'POST', headers, body: ASYNC_BODY, connections, duration: seconds });
const acRate = ac.requests.total / seconds;
await drained(emu);

const dispatcher = new Agent({ connections, pipelining: 1, keepAliveTimeout: 30_000 });
const client = new DroidClient({ baseUrl: emu.baseUrl, droidId: emu.droidId, token: emu.token, dispatcher });
const { session, model } = await runLoadEngine({
  client,
  mix: createMix(suites(), { mode: 'async' }),
  model: { kind: 'closed', concurrency: connections, durationMs: seconds * 1000 },
  timeoutMs: 30_000,
  ackOnly: true,
});
const dcRate = session.stats.outcomes.answered / (model.elapsedMs / 1000);
console.log(`ack path, closed model, ${connections} connections, ${seconds} s (emulator in a child process)`);
console.log(`  autocannon: ${ac.requests.total} requests, ${ac.non2xx} non-2xx, latency p99 ${ac.latency.p99} ms`);
console.log(`  droidcheck: ${session.stats.sent} requests, errors ${session.stats.errors}, ack p99 ${session.ctx.latency.summary('ack').p99} ms`);
verdict('droidcheck closed model', dcRate, acRate, 'autocannon', 'req/s', 0.9);
await dispatcher.close();
await emu.close();
