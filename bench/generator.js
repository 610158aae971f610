/**
 * Generator: CPU per async answer of `droidcheck load` (submit, acknowledgement, webhook on its
 * receiver, correlation, HDR, the contract check, the expectation, NDJSON record) beside a
 * minimal loop doing the least a generator must (bench/generator-minimal.js: undici Pool submits
 * at the same open rate, a bare node:http receiver matching requestIds in a Map, HDR), both
 * against the same emulator in another process, with the same secret and the same ~1.7 KB
 * answers. Each generator is a process of its own (the real CLI for droidcheck), its CPU read
 * from /proc over the same steady window (after its first second of sending), divided by the
 * answers the emulator delivered in that window. Rounds alternate the order; median and spread.
 * Target: droidcheck <= 1.2x the minimal loop.
 *
 *   npm run build && node bench/generator.js [--rate 800] [--seconds 7] [--rounds 3] [--baseline DIR] [--profile DIR]
 *
 * `--profile DIR` runs both generators with --cpu-prof (profiles in DIR); `--baseline DIR` adds
 * the CLI of another build (a copy of dist/ before a change) to every round.
 * Bounded: rounds x 2 runs of --seconds each (+ start-up), each killed at --seconds + 30 s.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  arg,
  argString,
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

const rate = arg('rate', 800);
const seconds = arg('seconds', 7);
const rounds = arg('rounds', 3);
const profile = argString('profile', undefined);
const baseline = argString('baseline', undefined);
const WARM_S = 1.5;
const windowS = Math.max(1, seconds - WARM_S - 1.5);

const here = (f) => fileURLToPath(new URL(f, import.meta.url));
const cli = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
const port = await freePort();
const emu = await startEmulatorChild({ webhookUrl: `http://127.0.0.1:${port}/webhook`, webhookSecret: SECRET });
const env = { ...process.env, DROID_API_TOKEN: emu.token, DROID_WEBHOOK_SECRET: SECRET };
const reports = await mkdtemp(join(tmpdir(), 'droidcheck-bench-'));

const profArgs = (name) =>
  profile
    ? ['--cpu-prof', `--cpu-prof-dir=${profile}`, `--cpu-prof-name=generator-${name}-${Date.now()}.cpuprofile`]
    : [];
const loadArgs = (main) =>
  loadArgv({
    main,
    path: here('./fixtures/bench.yaml'),
    rate,
    seconds,
    emu,
    port,
    reportDir: reports,
    extra: ['--no-default-thresholds'],
  });
const KINDS = {
  droidcheck: () => [...profArgs('droidcheck'), ...loadArgs(cli)],
  ...(baseline && { baseline: () => loadArgs(join(baseline, 'cli/main.js')) }),
  'minimal loop': () => [
    ...profArgs('minimal'),
    here('./generator-minimal.js'),
    '--base-url',
    emu.baseUrl,
    '--droid-id',
    String(emu.droidId),
    '--port',
    String(port),
    '--rate',
    String(rate),
    '--seconds',
    String(seconds),
  ],
};

/** Runs one generator; its CPU and the emulator's deliveries over the steady window. */
async function measure(kind) {
  const before = await emu.stats();
  const child = spawn(process.execPath, KINDS[kind](), { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (c) => (out += c));
  child.stderr.on('data', (c) => (out += c));
  const exited = once(child, 'exit');
  const kill = setTimeout(() => child.kill('SIGKILL'), (seconds + 30) * 1000);
  // The window opens WARM_S after the first second's worth of requests was accepted.
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
  const result = {
    kind,
    usPerAnswer: ((cpu1 - cpu0) * 1000) / Math.max(1, answers),
    answers,
    cpuMs: cpu1 - cpu0,
    rate: answers / windowS,
    code,
  };
  if (code !== 0 || process.env.BENCH_DEBUG)
    console.log(`  [${kind} exit ${code}] ${out.trim().split('\n').slice(-4).join(' | ')}`);
  await drained(emu, 30_000);
  return result;
}

console.log(
  `generator: CPU per async answer at ${rate} req/s (open model), window ${windowS} s of each ${seconds} s run, ${rounds} rounds; emulator in its own process; ${boxLoad()}`,
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
      `${kind} ${m.usPerAnswer.toFixed(1)} us (${m.answers} answers, ${m.rate.toFixed(0)}/s, CPU ${m.cpuMs.toFixed(0)} ms)`,
    );
  }
  console.log(`  round ${r + 1}: ${line.join(' | ')}`);
}
await emu.close();
await rm(reports, { recursive: true, force: true });

const dc = results.droidcheck;
const min = results['minimal loop'];
const ratios = dc.map((v, i) => v / min[i]);
const ratio = median(ratios);
console.log(
  `CPU per answer, median (min-max): droidcheck load ${spread(dc, 1)} us | minimal loop ${spread(min, 1)} us`,
);
console.log(
  `droidcheck load / minimal loop: ratio ${spread(ratios)} | target <= 1.20${ratio > 1.2 ? `  MISSED by ${((ratio / 1.2 - 1) * 100).toFixed(1)}%` : '  OK'}`,
);
if (baseline) {
  const base = results.baseline;
  console.log(
    `baseline build (${baseline}): ${spread(base, 1)} us; baseline / minimal loop ${spread(base.map((v, i) => v / min[i]))}; droidcheck / baseline ${spread(dc.map((v, i) => v / base[i]))}`,
  );
}
process.exit(0);
