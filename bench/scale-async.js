/**
 * Scale: RSS over a long open-model async run against the emulator (child process, answers at
 * once), records streamed to an NDJSON file in a temp dir (never kept in memory). Samples RSS and
 * heapUsed every 5 s; prints the RSS curve (min, max, last, growth after the first minute).
 * Target: RSS under 300 MB over a 1,000,000-request run. Bounded by --requests and by a time cap
 * of 1.5 x requests/rate + 60 s.
 * Usage: node bench/scale-async.js [--requests 1000000] [--rate 1200]
 */
// As the CLI runs (cli/main.ts): one tick object kept alive, imported first (src/tick-shape.ts).
import '../dist/tick-shape.js';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent } from 'undici';
import { createReceiver, DroidClient, loadSuites, tuneHeapForPendingRequests } from '../dist/index.js';
import { MixSource, runEngine } from '../dist/runner/index.js';
import { NdjsonWriter } from '../dist/report/index.js';
import { arg, boxLoad, startEmulatorChild } from './lib.js';

// The open model's V8 heap flags, as `droidcheck load` sets them (src/v8-flags.ts).
tuneHeapForPendingRequests();

const requests = arg('requests', 1_000_000);
const rate = arg('rate', 1200);
const TARGET_MB = 300;
const SAMPLE_MS = 5000;
const capMs = 1.5 * (requests / rate) * 1000 + 60_000;
const MB = 2 ** 20;

const dir = await mkdtemp(join(tmpdir(), 'droidcheck-scale-'));
const writer = await NdjsonWriter.open(join(dir, 'results.ndjson'), { answers: 'failed' });
const suites = await loadSuites([fileURLToPath(new URL('./fixtures/bench.yaml', import.meta.url))]);
console.log(`scale: ${requests} async requests at ${rate}/s, records streamed to ${writer.path}; ${boxLoad()}`);
const receiver = createReceiver({ secret: null });
const webhookUrl = await receiver.listen();
const emu = await startEmulatorChild({ webhookUrl });
const dispatcher = new Agent({ connections: null, keepAliveTimeout: 30_000 });
const client = new DroidClient({ baseUrl: emu.baseUrl, droidId: emu.droidId, token: emu.token, dispatcher });
const stop = new AbortController();
const abort = new AbortController();

const t0 = Date.now();
const samples = [];
const sample = () => {
  const m = process.memoryUsage();
  samples.push({ t: (Date.now() - t0) / 1000, rss: m.rss, heap: m.heapUsed });
};
sample();
const sampler = setInterval(() => {
  sample();
  const s = samples[samples.length - 1];
  if (samples.length % 6 === 1) {
    console.log(
      `t=${s.t.toFixed(0)}s rss ${(s.rss / MB).toFixed(0)} MiB heap ${(s.heap / MB).toFixed(0)} MiB records ${writer.lines}`,
    );
  }
}, SAMPLE_MS);
// Time cap: stop arrivals at the cap, abort in-flight requests 30 s later (drain bound).
const capTimer = setTimeout(() => {
  console.log(`time cap ${(capMs / 1000).toFixed(0)} s reached: stopping`);
  stop.abort();
  setTimeout(() => abort.abort(), 30_000).unref();
}, capMs);
capTimer.unref();

const result = await runEngine({
  source: MixSource.of(suites, { seed: 1 }),
  scheduler: {
    kind: 'open',
    startRate: rate,
    stages: [{ durationMs: Math.ceil((requests / rate) * 1000) + 2000, target: rate }],
    maxInFlight: 50_000,
    maxRequests: requests,
  },
  client,
  receiver,
  timeoutMs: 30_000,
  drainTimeoutMs: 30_000,
  skipGraded: true,
  sinks: [{ onRecord: (record, warmup) => void writer.writeRecord(record, warmup), drained: () => writer.drained() }],
  stopSignal: stop.signal,
  abortSignal: abort.signal,
});
clearInterval(sampler);
clearTimeout(capTimer);
sample();
await writer.close();
const fileBytes = (await stat(writer.path)).size;

const rss = samples.map((s) => s.rss);
const afterMinute = samples.filter((s) => s.t >= 60);
const base = afterMinute[0];
const last = samples[samples.length - 1];
const maxRss = Math.max(...rss);
const f = (b) => (b / MB).toFixed(1);
console.log(
  `async open model ${rate} req/s, ${requests} requests: elapsed ${(result.durationMs / 1000).toFixed(0)} s, sent ${result.counts.sent}, dropped ${result.counts.dropped}, outcomes ${JSON.stringify(Object.fromEntries(Object.entries(result.tally.outcomes).filter(([, n]) => n > 0)))}`,
);
console.log(`records: ${writer.lines} lines, ${f(fileBytes)} MiB NDJSON at ${writer.path}`);
console.log(
  `RSS curve (${samples.length} samples every ${SAMPLE_MS / 1000} s), MiB: ${samples
    .filter((_, i) => i % 12 === 0 || i === samples.length - 1)
    .map((s) => `${s.t.toFixed(0)}s:${f(s.rss)}`)
    .join(' ')}`,
);
console.log(
  `RSS min ${f(Math.min(...rss))} MiB, max ${f(maxRss)} MiB, last ${f(last.rss)} MiB; heapUsed max ${f(Math.max(...samples.map((s) => s.heap)))} MiB, last ${f(last.heap)} MiB`,
);
if (base)
  console.log(
    `growth after the first minute (t=${base.t.toFixed(0)}s -> end): RSS ${f(last.rss - base.rss)} MiB, heapUsed ${f(last.heap - base.heap)} MiB`,
  );
const maxMB = maxRss / 1e6;
console.log(
  `max RSS ${maxMB.toFixed(0)} MB | target < ${TARGET_MB} MB | ratio ${(maxMB / TARGET_MB).toFixed(2)}${maxMB >= TARGET_MB ? `  MISSED by ${(maxMB - TARGET_MB).toFixed(0)} MB` : '  OK'}`,
);
await dispatcher.close();
await emu.close();
await receiver.close();
await rm(dir, { recursive: true, force: true });
process.exit(0);
