/**
 * Held sync: --count concurrent sync requests held open by the emulator (child process, every
 * answer delayed by --hold-ms), opened at --rate per second (open model); measures this process's
 * RSS and heapUsed when all of them are in flight. Target: 20,000 held within 400 MB.
 * Each end holds one socket per request in its own process, so each needs ~count file
 * descriptors: the soft `ulimit -n` is raised (re-exec through bash) when the hard limit allows;
 * otherwise the count is lowered to what fits and the script says so.
 * Bounded: the run is stopped at count/rate + hold + 60 s.
 * Usage: node bench/held-sync.js [--count 20000] [--rate 2000] [--hold-ms 30000]
 */
// As the CLI runs (cli/main.ts): one tick object kept alive, imported first (src/tick-shape.ts).
import '../dist/tick-shape.js';
import { execFileSync, spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Agent } from 'undici';
import { DroidClient, loadSuites, tuneHeapForPendingRequests } from '../dist/index.js';
import { MixSource, runEngine } from '../dist/runner/index.js';
import { arg, boxLoad, startEmulatorChild } from './lib.js';

// The open model's V8 heap flags, as `droidcheck load` sets them (src/v8-flags.ts).
tuneHeapForPendingRequests();

const wanted = arg('count', 20_000);
const rate = arg('rate', 2000);
const holdMs = arg('hold-ms', 30_000);
const TARGET_MB = 400;
const SPARE_FDS = 1000;
const MB = 2 ** 20;

const limit = (flag) => {
  const v = execFileSync('bash', ['-c', `ulimit ${flag}`], { encoding: 'utf8' }).trim();
  return v === 'unlimited' ? Infinity : Number(v);
};
const soft = limit('-Sn');
const hard = limit('-Hn');
let count = wanted;
if (soft < wanted + SPARE_FDS) {
  if (hard >= wanted + SPARE_FDS && !process.env.HELD_SYNC_RAISED) {
    const to = Number.isFinite(hard) ? Math.min(hard, 65536) : 65536;
    console.log(`ulimit -n ${soft} < ${wanted + SPARE_FDS}: re-running with ulimit -n ${to}`);
    const self = fileURLToPath(import.meta.url);
    const cmd = `ulimit -n ${to}; exec "${process.execPath}" ${process.execArgv.join(' ')} "${self}" ${process.argv.slice(2).join(' ')}`;
    const r = spawnSync('bash', ['-c', cmd], { stdio: 'inherit', env: { ...process.env, HELD_SYNC_RAISED: '1' } });
    process.exit(r.status ?? 1);
  }
  count = Math.max(100, Math.floor((Math.min(soft, hard) - SPARE_FDS) / 100) * 100);
  console.log(
    `ulimit -n soft ${soft}, hard ${hard}: cannot hold ${wanted} sockets per process; running ${count} instead`,
  );
}

const emu = await startEmulatorChild({ answerDelayMs: holdMs });
const suites = await loadSuites([fileURLToPath(new URL('./fixtures/bench.yaml', import.meta.url))]);
console.log(`held sync: ${count} requests at ${rate}/s, each held ${holdMs} ms by the emulator; ${boxLoad()}`);
const dispatcher = new Agent({
  connections: null,
  keepAliveTimeout: 10_000,
  headersTimeout: holdMs + 60_000,
  bodyTimeout: holdMs + 60_000,
});
const client = new DroidClient({
  baseUrl: emu.baseUrl,
  droidId: emu.droidId,
  token: emu.token,
  dispatcher,
  syncTimeoutMs: holdMs + 60_000,
});
const stop = new AbortController();
const abort = new AbortController();
const capMs = (count / rate) * 1000 + holdMs + 60_000;
const capTimer = setTimeout(() => {
  console.log(`time cap ${(capMs / 1000).toFixed(0)} s reached: aborting`);
  stop.abort();
  abort.abort();
}, capMs);

globalThis.gc?.();
const before = process.memoryUsage();
const baseFds = readdirSync('/proc/self/fd').length;
const t0 = Date.now();
const run = runEngine({
  source: MixSource.of(suites, { mode: 'sync', seed: 1 }),
  scheduler: {
    kind: 'open',
    startRate: rate,
    stages: [{ durationMs: Math.ceil((count / rate) * 1000) + 2000, target: rate }],
    maxInFlight: count + 1,
    maxRequests: count,
  },
  client,
  timeoutMs: holdMs + 60_000,
  drainTimeoutMs: holdMs + 30_000,
  skipGraded: true,
  stopSignal: stop.signal,
  abortSignal: abort.signal,
});
let peak = { rss: 0, heap: 0 };
let allInFlight;
let maxInFlight = 0;
const poll = setInterval(() => {
  const m = process.memoryUsage();
  if (m.rss > peak.rss) peak = { rss: m.rss, heap: m.heapUsed, t: (Date.now() - t0) / 1000 };
}, 250);
// All held: this process has one socket (fd under /proc/self/fd) per request in flight; every
// request is sent by count/rate s and the first answer comes at holdMs.
const watchUntil = Date.now() + Math.min(holdMs - 2000, (count / rate) * 1000 * 3 + 5000);
while (Date.now() < watchUntil) {
  await new Promise((r) => setTimeout(r, 500));
  const fds = readdirSync('/proc/self/fd').length;
  maxInFlight = Math.max(maxInFlight, fds);
  if (fds >= count + baseFds && !allInFlight) {
    await new Promise((r) => setTimeout(r, 1000));
    globalThis.gc?.();
    const m = process.memoryUsage();
    allInFlight = {
      t: (Date.now() - t0) / 1000,
      fds: readdirSync('/proc/self/fd').length,
      rss: m.rss,
      heap: m.heapUsed,
    };
    break;
  }
}
const result = await run;
clearInterval(poll);
clearTimeout(capTimer);
const f = (b) => (b / MB).toFixed(1);
console.log(
  `held sync: ${count} requests at ${rate}/s, each held ${holdMs} ms: sent ${result.counts.sent}, dropped ${result.counts.dropped}, outcomes ${JSON.stringify(Object.fromEntries(Object.entries(result.tally.outcomes).filter(([, n]) => n > 0)))}, elapsed ${(result.durationMs / 1000).toFixed(0)} s`,
);
console.log(`before: RSS ${f(before.rss)} MiB, heap ${f(before.heapUsed)} MiB`);
if (allInFlight) {
  console.log(
    `all in flight at t=${allInFlight.t.toFixed(1)} s (${allInFlight.fds} open fds): RSS ${f(allInFlight.rss)} MiB, heapUsed ${f(allInFlight.heap)} MiB, heap per held request ${((allInFlight.heap - before.heapUsed) / count).toFixed(0)} B`,
  );
} else {
  console.log(`never saw all ${count} in flight (max open fds ${maxInFlight})`);
}
console.log(`peak RSS ${f(peak.rss)} MiB (heapUsed ${f(peak.heap)} MiB) at t=${peak.t?.toFixed(1)} s`);
const peakMB = peak.rss / 1e6;
console.log(
  `peak RSS ${peakMB.toFixed(0)} MB with ${count} held | target <= ${TARGET_MB} MB (at 20,000) | ratio ${(peakMB / TARGET_MB).toFixed(2)}${peakMB > TARGET_MB ? `  MISSED by ${(peakMB - TARGET_MB).toFixed(0)} MB` : '  OK'}${count < wanted ? `  (count ${count} < ${wanted}: fd limit)` : ''}`,
);
await dispatcher.close();
await emu.close();
process.exit(0);
