/**
 * Telemetry: CPU per async answer of `droidcheck load` with OpenTelemetry export on (traces and
 * metrics over OTLP/HTTP protobuf to a local sink that answers 200, every conversation kept) beside
 * the same CLI with export off (the anchor: no OpenTelemetry package loaded), in the same rounds,
 * against the same emulator in another process; also with `--no-trace-context` (no traceparent
 * header), to show what the header alone costs. Each run is a process of its own, its CPU read
 * from /proc over the same steady window, divided by the answers the emulator delivered in it.
 * Rounds alternate the order; median and spread. Target: export on <= 1.15x export off at
 * 200 answers/s (docs/telemetry.md, Overhead).
 *
 *   npm run build && node bench/telemetry.js [--rate 200] [--seconds 10] [--rounds 3]
 *
 * Bounded: rounds x 3 runs of --seconds each (+ start-up), each killed at --seconds + 30 s.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  arg,
  boxLoad,
  cpuMsOf,
  drained,
  freePort,
  loadArgv,
  median,
  SECRET,
  sleep,
  spread,
  startEmulatorChild,
} from './lib.js';

const rate = arg('rate', 200);
const seconds = arg('seconds', 10);
const rounds = arg('rounds', 3);
const WARM_S = 1.5;
const windowS = Math.max(1, seconds - WARM_S - 1.5);

const here = (f) => fileURLToPath(new URL(f, import.meta.url));
const cli = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));

// The OTLP sink: takes every export and answers 200 (an empty protobuf export response).
const exported = { requests: 0, bytes: 0 };
const sink = createServer((req, res) => {
  req.on('data', (c) => (exported.bytes += c.length));
  req.on('end', () => {
    exported.requests += 1;
    res.writeHead(200, { 'content-type': 'application/x-protobuf' });
    res.end();
  });
});
await new Promise((r) => sink.listen(0, '127.0.0.1', r));
const otlpUrl = `http://127.0.0.1:${sink.address().port}`;

const port = await freePort();
const emu = await startEmulatorChild({ webhookUrl: `http://127.0.0.1:${port}/webhook`, webhookSecret: SECRET });
const baseEnv = { ...process.env, DROID_API_TOKEN: emu.token, DROID_WEBHOOK_SECRET: SECRET };
for (const k of Object.keys(baseEnv)) if (k.startsWith('OTEL_')) delete baseEnv[k];
const reports = await mkdtemp(join(tmpdir(), 'droidcheck-bench-telemetry-'));

const loadArgs = (extra = []) =>
  loadArgv({
    main: cli,
    path: here('./fixtures/bench.yaml'),
    rate,
    seconds,
    emu,
    port,
    reportDir: reports,
    extra: ['--no-default-thresholds', ...extra],
  });
const KINDS = {
  'export off': { args: loadArgs(), env: baseEnv },
  'export on': {
    args: loadArgs(),
    // Metrics every 5 s, so the window holds metric exports too (the default is 60 s).
    env: { ...baseEnv, OTEL_EXPORTER_OTLP_ENDPOINT: otlpUrl, OTEL_METRIC_EXPORT_INTERVAL: '5000' },
  },
  'no trace context': { args: loadArgs(['--no-trace-context']), env: baseEnv },
};

/** Runs one CLI; its CPU and the emulator's deliveries over the steady window. */
async function measure(kind) {
  const before = await emu.stats();
  const exportsBefore = { ...exported };
  const child = spawn(process.execPath, KINDS[kind].args, { env: KINDS[kind].env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (c) => (out += c));
  child.stderr.on('data', (c) => (out += c));
  const exited = once(child, 'exit');
  const kill = setTimeout(() => child.kill('SIGKILL'), (seconds + 30) * 1000);
  const until = Date.now() + 20_000;
  while ((await emu.stats()).accepted - before.accepted < rate && Date.now() < until) await sleep(50);
  await sleep(WARM_S * 1000);
  const cpu0 = cpuMsOf(child.pid);
  const s0 = await emu.stats();
  await sleep(windowS * 1000);
  const cpu1 = cpuMsOf(child.pid);
  const s1 = await emu.stats();
  const [code] = await exited;
  clearTimeout(kill);
  const answers = s1.delivered - s0.delivered;
  if (code !== 0 || process.env.BENCH_DEBUG)
    console.log(`  [${kind} exit ${code}] ${out.trim().split('\n').slice(-4).join(' | ')}`);
  await drained(emu, 30_000);
  return {
    usPerAnswer: ((cpu1 - cpu0) * 1000) / Math.max(1, answers),
    answers,
    cpuMs: cpu1 - cpu0,
    rate: answers / windowS,
    exports: exported.requests - exportsBefore.requests,
    kb: (exported.bytes - exportsBefore.bytes) / 1024,
  };
}

console.log(
  `telemetry: CPU per async answer of droidcheck load at ${rate} req/s, export on vs off, window ${windowS} s of each ${seconds} s run, ${rounds} rounds; emulator in its own process; ${boxLoad()}`,
);
const results = Object.fromEntries(Object.keys(KINDS).map((k) => [k, []]));
for (let r = 0; r < rounds; r++) {
  const kinds = Object.keys(KINDS);
  const order = r % 2 === 0 ? kinds : [...kinds].reverse();
  const line = [];
  for (const kind of order) {
    const m = await measure(kind);
    results[kind].push(m.usPerAnswer);
    line.push(
      `${kind} ${m.usPerAnswer.toFixed(1)} us (${m.answers} answers, ${m.rate.toFixed(0)}/s, CPU ${m.cpuMs.toFixed(0)} ms${m.exports > 0 ? `, ${m.exports} OTLP exports, ${m.kb.toFixed(0)} KB` : ''})`,
    );
  }
  console.log(`  round ${r + 1}: ${line.join(' | ')}`);
}
await emu.close();
sink.close();
await rm(reports, { recursive: true, force: true });

const off = results['export off'];
const on = results['export on'];
const bare = results['no trace context'];
const ratios = on.map((v, i) => v / off[i]);
const ratio = median(ratios);
console.log(
  `CPU per answer, median (min-max): export on ${spread(on, 1)} us | export off ${spread(off, 1)} us | no trace context ${spread(bare, 1)} us`,
);
console.log(
  `export on / export off: ratio ${spread(ratios)} | target <= 1.15${ratio > 1.15 ? `  MISSED by ${((ratio / 1.15 - 1) * 100).toFixed(1)}%` : '  OK'}`,
);
console.log(`export off / no trace context (the traceparent header): ratio ${spread(off.map((v, i) => v / bare[i]))}`);
process.exit(0);
