/**
 * Closed model on the acknowledgement path: droidcheck's engine (runEngine, a mix of the bench
 * scenario, closed model, `ackOnly`: what `droidcheck load --ack-only --concurrency N` runs) vs
 * autocannon 8, same emulator route (POST get-droid-answer-async, emulator in a child process),
 * same connection count, same body; rounds alternate the order (median and spread). autocannon's
 * raw req/s is the anchor (its coordinated-omission-corrected figures are not used).
 * Target: droidcheck >= 0.9x autocannon.
 *
 *   npm run build && node bench/ack-closed.js [--connections 64] [--seconds 3] [--rounds 3] [--baseline DIR]
 *
 * `--baseline DIR` adds the engine of another build (a copy of dist/ before a change).
 *
 * Bounded: rounds x 2 runs of --seconds each (+ a 1 s warm-up of each).
 */
// As the CLI runs (cli/main.ts): one tick object kept alive, imported first (src/tick-shape.ts).
import '../dist/tick-shape.js';
import autocannon from 'autocannon';
import { fileURLToPath } from 'node:url';
import { Agent } from 'undici';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DroidClient, loadSuites } from '../dist/index.js';
import { MixSource, runEngine } from '../dist/runner/index.js';
import { arg, argString, ASYNC_BODY, boxLoad, drained, median, spread, startEmulatorChild } from './lib.js';

const connections = arg('connections', 64);
const seconds = arg('seconds', 3);
const rounds = arg('rounds', 3);
const emu = await startEmulatorChild();
const url = `${emu.baseUrl}/api/droids/${emu.droidId}/endpoint/get-droid-answer-async`;
const headers = { authorization: `Bearer ${emu.token}`, 'content-type': 'application/json' };
const suites = await loadSuites([fileURLToPath(new URL('./fixtures/bench.yaml', import.meta.url))]);
const dispatcher = new Agent({ connections, pipelining: 1, keepAliveTimeout: 30_000 });
const client = new DroidClient({ baseUrl: emu.baseUrl, droidId: emu.droidId, token: emu.token, dispatcher });
const baselineDir = argString('baseline', undefined);
const engines = { droidcheck: { runEngine, MixSource, client } };
if (baselineDir) {
  const b = await import(pathToFileURL(`${resolve(baselineDir)}/index.js`).href);
  engines.baseline = {
    runEngine: b.runEngine,
    MixSource: b.MixSource,
    client: new b.DroidClient({ baseUrl: emu.baseUrl, droidId: emu.droidId, token: emu.token, dispatcher }),
  };
}

async function withAutocannon(s) {
  const cpu0 = process.cpuUsage();
  const r = await autocannon({ url, method: 'POST', headers, body: ASYNC_BODY, connections, duration: s });
  const cpu = process.cpuUsage(cpu0);
  await drained(emu);
  const us = (cpu.user + cpu.system) / Math.max(1, r.requests.total);
  return {
    rate: r.requests.total / s,
    detail: `${r.requests.total} requests, ${r.non2xx} non-2xx, p99 ${r.latency.p99} ms, ${us.toFixed(0)} us CPU each`,
  };
}

async function withDroidcheck(s, which = 'droidcheck') {
  const e = engines[which];
  const cpu0 = process.cpuUsage();
  const engine = await e.runEngine({
    source: e.MixSource.of(suites, { seed: 1 }),
    scheduler: { kind: 'closed', concurrency: connections, durationMs: s * 1000 },
    client: e.client,
    timeoutMs: 30_000,
    ackOnly: true,
    skipGraded: true,
  });
  const cpu = process.cpuUsage(cpu0);
  await drained(emu);
  const rate = engine.tally.outcomes.answered / (engine.measuredMs / 1000);
  const us = (cpu.user + cpu.system) / Math.max(1, engine.counts.sent);
  return {
    rate,
    detail: `${engine.counts.sent} requests, ${engine.tally.requests - engine.tally.outcomes.answered} not answered, ack p99 ${engine.latency.percentileMs('ack', 99).toFixed(1)} ms, ${us.toFixed(0)} us CPU each`,
  };
}

console.log(
  `ack route, closed model, ${connections} connections, ${rounds} rounds of ${seconds} s each (emulator in a child process); ${boxLoad()}`,
);
await withAutocannon(1); // warm-up of the emulator's JIT, unmeasured
for (const which of Object.keys(engines)) await withDroidcheck(1, which);
const kinds = [...Object.keys(engines), 'autocannon'];
const rates = Object.fromEntries(kinds.map((k) => [k, []]));
for (let r = 0; r < rounds; r++) {
  const order = r % 2 === 0 ? kinds : [...kinds].reverse();
  const line = [];
  for (const who of order) {
    const m = who === 'autocannon' ? await withAutocannon(seconds) : await withDroidcheck(seconds, who);
    rates[who].push(m.rate);
    line.push(`${who} ${m.rate.toFixed(0)} req/s (${m.detail})`);
  }
  console.log(`  round ${r + 1}: ${line.join(' | ')}`);
}
const ratios = rates.droidcheck.map((v, i) => v / rates.autocannon[i]);
console.log(
  `acknowledgements per second, median (min-max): droidcheck ${spread(rates.droidcheck, 0)} | autocannon ${spread(rates.autocannon, 0)}`,
);
const ratio = median(ratios);
console.log(
  `droidcheck closed model / autocannon: ratio ${spread(ratios)} | target >= 0.90${ratio < 0.9 ? `  MISSED by ${((1 - ratio / 0.9) * 100).toFixed(1)}%` : '  OK'}`,
);
if (engines.baseline)
  console.log(
    `baseline build (${baselineDir}): ${spread(rates.baseline, 0)} req/s; baseline / autocannon ${spread(rates.baseline.map((v, i) => v / rates.autocannon[i]))}`,
  );
await dispatcher.close();
await emu.close();
