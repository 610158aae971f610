#!/usr/bin/env node
/**
 * Soak benchmark (memory and handles must stay flat over a long run): a steady arrival rate of
 * async requests, faults on, for a bounded time, against the emulator and receiver on 127.0.0.1;
 * prints RSS, heap and open handles every 10 s and a verdict: memory flat (least-squares growth
 * after warm-up under --max-growth %) and no growth in open handles.
 *
 *   npm run build && node bench/soak.mjs                 # 2 minutes at 100 req/s
 *   node bench/soak.mjs --minutes 10 --rate 100          # the full soak
 *
 * Exit 0 when flat, 1 when not. Records are counted, not kept (a run keeps them by design).
 */
import { parseArgs } from 'node:util';
import { Agent } from 'undici';
import { createEmulator, createReceiver, DroidClient, parseSuite, systemClock } from '../dist/index.js';
import { executeRequest } from '../dist/runner/index.js';
import { LatencyRecorder } from '../dist/metrics/index.js';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '2' },
    rate: { type: 'string', default: '100' },
    'max-growth': { type: 'string', default: '10' },
    'sample-s': { type: 'string', default: '10' },
  },
});
const minutes = Math.min(60, Number(values.minutes));
const rate = Math.min(2_000, Number(values.rate));
const maxGrowthPct = Number(values['max-growth']);
const sampleMs = Number(values['sample-s']) * 1000;
const DEADLINE_MS = 2_000;
const MAX_IN_FLIGHT = 2_000;

const FAULTS = {
  requests: [
    { endpoint: 'get-droid-answer-async', probability: 0.05, action: 'error', status: 503 },
    { endpoint: 'get-droid-answer-async', probability: 0.1, action: 'rate-limit', retryAfterS: 1 },
    { endpoint: 'get-droid-answer-async', probability: 0.02, action: 'reset' },
    { endpoint: 'get-droid-answer-async', probability: 0.05, action: 'delay', delay: { kind: 'fixed', ms: 150 } },
  ],
  webhooks: [
    { probability: 0.05, action: 'drop' },
    { probability: 0.2, action: 'duplicate', copies: 2 },
    { probability: 0.02, action: 'late', delayMs: DEADLINE_MS + 1_000 },
  ],
};

const mb = (bytes) => Math.round((bytes / 1024 / 1024) * 10) / 10;
const handles = () => process.getActiveResourcesInfo().filter((r) => r !== 'TTYWrap').length;

/** Least-squares slope of ys over xs (per x unit). */
function slope(xs, ys) {
  const n = xs.length;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    num += (xs[i] - mx) * (ys[i] - my);
    den += (xs[i] - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

const receiver = createReceiver({
  secret: 'soak-secret-0123456789abcdefghijklmnopqr',
  orphanGraceMs: 5_000,
  rememberMs: 30_000,
});
const webhookUrl = await receiver.listen();
const emulator = await createEmulator({
  webhookUrl,
  webhookSecret: 'soak-secret-0123456789abcdefghijklmnopqr',
  faults: FAULTS,
  deliveryLogRetentionMs: 10_000,
});
const baseUrl = await emulator.listen();
const dispatcher = new Agent({ connections: 256, keepAliveTimeout: 10_000 });
const client = new DroidClient({
  baseUrl,
  droidId: emulator.droidId,
  token: emulator.token,
  dispatcher,
  requestTimeoutMs: 5_000,
});
const scenario = parseSuite(
  'suite: soak\nscenarios:\n  - name: hello\n    modes: [async]\n    humanMessage: Do you have silk scarves?\n',
  'soak.yaml',
).scenarios[0];
const ctx = { client, receiver, clock: systemClock, timeoutMs: DEADLINE_MS, latency: new LatencyRecorder() };

const outcomes = {};
let sent = 0;
let inFlight = 0;
let skipped = 0;
const samples = [];
const t0 = performance.now();
const endAt = t0 + minutes * 60_000;

function sample() {
  emulator.sweepDeliveryLog(); // the emulator's own log (7-day retention by default) is not droidcheck's memory
  globalThis.gc?.();
  const m = process.memoryUsage();
  const s = {
    t: Math.round((performance.now() - t0) / 1000),
    rss: mb(m.rss),
    heap: mb(m.heapUsed),
    handles: handles(),
    sent,
    inFlight,
  };
  samples.push(s);
  console.log(
    `t=${String(s.t).padStart(4)}s rss=${s.rss} MB heap=${s.heap} MB handles=${s.handles} sent=${sent} in-flight=${inFlight} ${JSON.stringify(outcomes)}`,
  );
}

console.log(
  `soak: ${minutes} min at ${rate} req/s, faults on (5xx 5%, 429 10%, reset 2%, slow ack 5%, drop 5%, duplicate 20%, late 2%)`,
);
sample();
const timer = setInterval(sample, sampleMs);
// Steady arrival rate: send what is due every 10 ms (open model; skipped when over MAX_IN_FLIGHT).
await new Promise((resolve) => {
  const tick = setInterval(() => {
    const now = performance.now();
    if (now >= endAt) {
      clearInterval(tick);
      resolve();
      return;
    }
    const due = Math.floor(((now - t0) / 1000) * rate);
    while (sent + skipped < due) {
      if (inFlight >= MAX_IN_FLIGHT) {
        skipped++;
        continue;
      }
      sent++;
      inFlight++;
      void executeRequest({ seq: sent, scenario, mode: 'async' }, ctx).then((r) => {
        outcomes[r.outcome] = (outcomes[r.outcome] ?? 0) + 1;
        inFlight--;
      });
    }
  }, 10);
});
const drainUntil = performance.now() + 10_000;
while (inFlight > 0 && performance.now() < drainUntil) await new Promise((r) => setTimeout(r, 50));
sample();
clearInterval(timer);

// Verdict over the samples after a warm-up of 20 % of the run (at least 30 s).
const warm = Math.max(30, minutes * 60 * 0.2);
const steady = samples.filter((s) => s.t >= warm && s.t <= minutes * 60);
const xs = steady.map((s) => s.t);
const verdicts = [];
for (const key of ['rss', 'heap']) {
  const ys = steady.map((s) => s[key]);
  const mean = ys.reduce((a, b) => a + b, 0) / ys.length;
  const growthPct = steady.length < 3 ? 0 : ((slope(xs, ys) * (xs.at(-1) - xs[0])) / mean) * 100;
  verdicts.push({
    key,
    min: Math.min(...ys),
    max: Math.max(...ys),
    growthPct: Math.round(growthPct * 10) / 10,
    flat: growthPct < maxGrowthPct,
  });
}
const h = steady.map((s) => s.handles);
const handlesFlat = steady.length < 2 || h.at(-1) <= Math.max(...h.slice(0, Math.ceil(h.length / 2))) + 5;
const emu = emulator.stats();
await emulator.close();
await dispatcher.close();
await receiver.close();
const rec = receiver.stats();
const balanced = rec.received === rec.matched + rec.duplicates + rec.late + rec.orphans + rec.badSecret + rec.malformed;
const total = Object.values(outcomes).reduce((a, b) => a + b, 0);
for (const v of verdicts)
  console.log(
    `${v.key}: ${v.min}..${v.max} MB after warm-up, growth ${v.growthPct}% (limit ${maxGrowthPct}%): ${v.flat ? 'flat' : 'GROWING'}`,
  );
console.log(`handles: ${h.join(' ')}: ${handlesFlat ? 'no growth' : 'GROWING'}`);
console.log(
  `requests: sent ${sent}, skipped ${skipped}, outcomes ${total} ${JSON.stringify(outcomes)}; emulator accepted ${emu.accepted} injected ${emu.injectedFaults}`,
);
console.log(`receiver: ${JSON.stringify(rec)} ${balanced ? 'balanced' : 'UNBALANCED'}`);
const ok = verdicts.every((v) => v.flat) && handlesFlat && balanced && total === sent;
console.log(`verdict: ${ok ? 'PASS (flat memory, no handle growth, nothing lost)' : 'FAIL'}`);
process.exit(ok ? 0 : 1);
