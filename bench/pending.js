/**
 * Pending answers: what `droidcheck load` costs per async answer while tens of thousands of
 * answers are pending, beside the minimal loop doing the same work (bench/generator-minimal.js:
 * an undici Pool submitting on the same open schedule, a bare node:http receiver matching
 * webhooks by requestId in a Map, HDR). Four runs per round, each alone on the box (one after
 * the other, the order reversed every round), each against its own emulator in another process:
 *
 * - droidcheck, instant answers: `load SCENARIOS --exclude-tag steps --mode async --rate R
 *   --duration S` (the example suites, every answer judged, every reporter);
 * - droidcheck, answers delayed by --answer-delay: the same load; at 1,000/s with 60 s answers
 *   60,000 answers are pending when the first one arrives;
 * - the minimal loop, instant, and with the same delay.
 *
 * Each run sends for the same --seconds, so each gets the same number of answers. Figures of the
 * generator process only: its peak RSS (`/usr/bin/time -v`'s "Maximum resident set size", read
 * at exit by a preloaded probe, bench/usage-probe.js) and its CPU per answer (CPU from its first
 * request accepted to its exit, start-up left out, divided by the answers the emulator
 * delivered), its voluntary context switches per answer ("waits": a wake-up each, start-up
 * included; a load whose sends and answers come apart wakes more often per answer), and
 * droidcheck's send delay p99 and max (report.json). Then the medians (min-max)
 * and the per-round ratios against the targets: with the answers pending, droidcheck's peak RSS
 * <= 1.5x the minimal loop's and CPU per answer <= 1.25x; droidcheck's CPU per answer with
 * answers pending <= 1.10x its own with instant answers.
 *
 *   npm run build && node bench/pending.js [--rate 1000] [--seconds 60] [--answer-delay 60] [--rounds 1]
 *     [--scenarios DIR] [--kinds dc-instant,dc-pending,min-instant,min-pending] [--node-flags '...'] [--load-args '...']
 *     [--dist DIR] [--baseline DIR] [--variant 'NAME=node flags' ...] [--profile DIR] [--perf DIR] [--alloc DIR]
 *
 * `--node-flags`: node flags of the droidcheck runs only (to measure V8 settings both ways);
 * `--load-args`: more `load` options of every droidcheck run (to measure what a feature costs per
 * answer, e.g. `--load-args '-r console --no-trace-context'`);
 * `--dist DIR`: the CLI of another build; `--baseline DIR`: another build's two runs added to
 * every round (`base-instant`, `base-pending`), printed beside; `--variant 'NAME=FLAGS'`
 * (repeatable): droidcheck's two runs again with those node flags instead of --node-flags
 * (`NAME-instant`, `NAME-pending`), in the same rounds, printed beside (V8 settings measured
 * both ways: e.g. `--variant 'v8default=--semi-space-growth-factor=2 --heap-growing-percent=0'`,
 * given flags being left as they are by droidcheck); `--profile DIR`: V8 CPU profiles
 * of every run (bench/profile-top.js reads them); `--perf DIR`: `perf record -g` of every run's
 * generator process, on-CPU samples only (V8's profiler samples wall time: a generator preempted
 * inside a write() shows as time in it), with --perf-basic-prof so JavaScript frames are named
 * (`perf report -i DIR/KIND.data --no-children --sort dso,sym`); `--alloc DIR`: every
 * allocation of each run, sampled (usage-probe.js), in DIR/KIND.heapprofile
 * (`node bench/alloc-top.js FILE --per ANSWERS`).
 * Bounded: 4 runs per round of --seconds of sending + --answer-delay + start-up each; a run is
 * killed at --seconds + --answer-delay + 120 s.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  arg,
  argString,
  boxLoad,
  cpuMsOf,
  freePort,
  loadArgv,
  median,
  SECRET,
  sleep,
  spread,
  startEmulatorChild,
} from './lib.js';

const rate = arg('rate', 1000);
const seconds = arg('seconds', 60);
const delayS = arg('answer-delay', 60);
const rounds = arg('rounds', 1);
const here = (f) => fileURLToPath(new URL(f, import.meta.url));
const scenarios = argString('scenarios', here('../scenarios'));
const nodeFlags = argString('node-flags', '').split(' ').filter(Boolean);
const loadExtra = argString('load-args', '').split(' ').filter(Boolean);
const dist = argString('dist', here('../dist'));
const baseline = argString('baseline', undefined);
/** `--variant NAME=FLAGS`, repeatable. */
const variants = process.argv
  .flatMap((a, i) => (a === '--variant' && process.argv[i + 1] ? [process.argv[i + 1]] : []))
  .map((v) => ({
    name: v.slice(0, v.indexOf('=')),
    flags: v
      .slice(v.indexOf('=') + 1)
      .split(' ')
      .filter(Boolean),
  }));
const profile = argString('profile', undefined);
const perf = argString('perf', undefined);
const alloc = argString('alloc', undefined);
const MB = 1e6;
const TARGETS = { rss: 1.5, cpu: 1.25, own: 1.1 };

const profArgs = (name) => [
  ...(profile
    ? ['--cpu-prof', `--cpu-prof-dir=${profile}`, `--cpu-prof-name=pending-${name}-${Date.now()}.cpuprofile`]
    : []),
  ...(perf ? ['--perf-basic-prof'] : []),
];

/** The `droidcheck load` command line of one run. */
const loadArgs = (main, emu, port, reports) =>
  loadArgv({
    main,
    path: scenarios,
    rate,
    seconds,
    emu,
    port,
    reportDir: reports,
    timeout: `${delayS + 60}s`,
    extra: ['--exclude-tag', 'steps', '--mode', 'async', ...loadExtra],
  });
const minimalArgs = (emu, port) => [
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
  '--wait',
  String(delayS + 60),
];

const ALL = {
  'dc-instant': {
    delay: 0,
    argv: (...a) => [...nodeFlags, ...profArgs('dc-instant'), ...loadArgs(join(dist, 'cli/main.js'), ...a)],
  },
  'dc-pending': {
    delay: delayS,
    argv: (...a) => [...nodeFlags, ...profArgs('dc-pending'), ...loadArgs(join(dist, 'cli/main.js'), ...a)],
  },
  'min-instant': { delay: 0, argv: (emu, port) => [...profArgs('min-instant'), ...minimalArgs(emu, port)] },
  'min-pending': { delay: delayS, argv: (emu, port) => [...profArgs('min-pending'), ...minimalArgs(emu, port)] },
  ...(baseline && {
    'base-instant': { delay: 0, argv: (...a) => [...nodeFlags, ...loadArgs(join(baseline, 'cli/main.js'), ...a)] },
    'base-pending': { delay: delayS, argv: (...a) => [...nodeFlags, ...loadArgs(join(baseline, 'cli/main.js'), ...a)] },
  }),
  ...Object.fromEntries(
    variants.flatMap(({ name, flags }) => [
      [`${name}-instant`, { delay: 0, argv: (...a) => [...flags, ...loadArgs(join(dist, 'cli/main.js'), ...a)] }],
      [`${name}-pending`, { delay: delayS, argv: (...a) => [...flags, ...loadArgs(join(dist, 'cli/main.js'), ...a)] }],
    ]),
  ),
};
const kinds = argString('kinds', Object.keys(ALL).join(',')).split(',');
for (const k of kinds) if (!ALL[k]) throw new Error(`unknown kind ${k}: one of ${Object.keys(ALL).join(', ')}`);

/** VmRSS of a process now, bytes (NaN once it is gone). */
async function rssOf(pid) {
  try {
    const s = await readFile(`/proc/${pid}/status`, 'utf8');
    return Number(s.match(/^VmRSS:\s+(\d+) kB/m)?.[1]) * 1024;
  } catch {
    return Number.NaN;
  }
}

/** One run of `kind` against an emulator of its own: peak RSS, CPU per answer, most answers pending. */
async function measure(kind) {
  const { delay, argv } = ALL[kind];
  const port = await freePort();
  const emu = await startEmulatorChild({
    webhookUrl: `http://127.0.0.1:${port}/webhook`,
    webhookSecret: SECRET,
    answerDelayMs: delay * 1000,
  });
  const reports = await mkdtemp(join(tmpdir(), 'droidcheck-pending-'));
  const usageFile = join(reports, 'usage.json');
  const child = spawn(process.execPath, ['--import', here('./usage-probe.js'), ...argv(emu, port, reports)], {
    env: {
      ...process.env,
      DROID_API_TOKEN: emu.token,
      DROID_WEBHOOK_SECRET: SECRET,
      BENCH_USAGE_FILE: usageFile,
      ...(alloc && { BENCH_ALLOC_PROFILE: join(alloc, `${kind}.heapprofile`) }),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (c) => (out = (out + c).slice(-4000)));
  child.stderr.on('data', (c) => (out = (out + c).slice(-4000)));
  const exited = once(child, 'exit');
  const recorder = perf
    ? spawn('perf', ['record', '-F', '999', '-g', '-p', String(child.pid), '-o', join(perf, `${kind}.data`)], {
        stdio: 'ignore',
      })
    : undefined;
  const kill = setTimeout(() => child.kill('SIGKILL'), (seconds + delay + 120) * 1000);
  let cpu0;
  let maxPending = 0;
  let rssAtMaxPending = 0;
  while (child.exitCode === null && child.signalCode === null) {
    const s = await emu.stats();
    if (cpu0 === undefined && s.accepted > 0) cpu0 = cpuMsOf(child.pid);
    const pending = s.accepted - s.delivered;
    if (pending > maxPending) {
      maxPending = pending;
      rssAtMaxPending = await rssOf(child.pid);
    }
    await Promise.race([sleep(250), exited]);
  }
  const [code] = await exited;
  clearTimeout(kill);
  if (recorder && recorder.exitCode === null) await once(recorder, 'exit');
  const s = await emu.stats();
  await emu.close();
  let usage;
  try {
    usage = JSON.parse(await readFile(usageFile, 'utf8'));
  } catch {
    usage = { cpuUs: Number.NaN, maxRss: Number.NaN, voluntaryContextSwitches: Number.NaN };
  }
  // droidcheck's own send delay (actual minus intended start, ms): what a V8 setting that moves
  // collection work onto the sending thread costs the schedule.
  let sendDelay;
  try {
    sendDelay = JSON.parse(await readFile(join(reports, 'report.json'), 'utf8')).load?.sendDelay;
  } catch {
    sendDelay = undefined; // the minimal loop writes no report
  }
  await rm(reports, { recursive: true, force: true });
  const cpuMs = usage.cpuUs / 1000 - (cpu0 ?? 0);
  const result = {
    kind,
    code,
    answers: s.delivered,
    accepted: s.accepted,
    maxPending,
    maxRss: usage.maxRss,
    rssAtMaxPending,
    cpuMs,
    startupCpuMs: cpu0 ?? Number.NaN,
    usPerAnswer: (cpuMs * 1000) / Math.max(1, s.delivered),
    wakesPerAnswer: usage.voluntaryContextSwitches / Math.max(1, s.delivered),
    sendDelay,
  };
  if ((code !== 0 && code !== 99 && code !== 1) || process.env.BENCH_DEBUG)
    console.log(`  [${kind} exit ${code}] ${out.trim().split('\n').slice(-6).join(' | ')}`);
  return result;
}

console.log(
  `pending: droidcheck load (${scenarios}, async, every reporter) and the minimal loop at ${rate} req/s for ${seconds} s, answers instant or delayed ${delayS} s (${Math.round(rate * Math.min(seconds, delayS)).toLocaleString('en')} pending); ${rounds} round(s), each run alone${nodeFlags.length ? `; droidcheck node flags ${nodeFlags.join(' ')}` : ''}; ${boxLoad()}`,
);
const results = Object.fromEntries(kinds.map((k) => [k, []]));
for (let r = 0; r < rounds; r++) {
  const order = r % 2 === 0 ? kinds : [...kinds].reverse();
  for (const kind of order) {
    const m = await measure(kind);
    results[kind].push(m);
    console.log(
      `  round ${r + 1} ${kind.padEnd(12)} peak RSS ${(m.maxRss / MB).toFixed(0)} MB (${(m.rssAtMaxPending / MB).toFixed(0)} MB at ${m.maxPending} pending) | CPU ${m.usPerAnswer.toFixed(0)} us/answer (${m.cpuMs.toFixed(0)} ms over ${m.answers} answers of ${m.accepted}; start-up ${m.startupCpuMs.toFixed(0)} ms left out) | ${m.wakesPerAnswer.toFixed(1)} waits per answer${m.sendDelay ? ` | send delay p99 ${m.sendDelay.p99.toFixed(1)} ms, max ${m.sendDelay.max.toFixed(1)} ms` : ''} | exit ${m.code} | ${boxLoad().split(' on ')[0]}`,
    );
  }
}

const col = (k, f) => results[k]?.map(f) ?? [];
const rss = (k) => col(k, (m) => m.maxRss / MB);
const cpu = (k) => col(k, (m) => m.usPerAnswer);
console.log('median (min-max) per kind:');
for (const k of kinds)
  console.log(`  ${k.padEnd(12)} peak RSS ${spread(rss(k), 0)} MB | CPU per answer ${spread(cpu(k), 0)} us`);
/** Per-round ratios a / b of figure f, judged against target. */
function judged(label, a, b, target) {
  if (a.length === 0 || b.length === 0) return false;
  const ratios = a.map((v, i) => v / b[i]);
  const m = median(ratios);
  console.log(
    `${label}: ${spread(ratios)} | target <= ${target.toFixed(2)}${m > target ? `  MISSED by ${((m / target - 1) * 100).toFixed(1)}%` : '  OK'}`,
  );
  return m > target;
}
let missed = false;
missed =
  judged('peak RSS, droidcheck / minimal loop, answers pending', rss('dc-pending'), rss('min-pending'), TARGETS.rss) ||
  missed;
missed =
  judged(
    'CPU per answer, droidcheck / minimal loop, answers pending',
    cpu('dc-pending'),
    cpu('min-pending'),
    TARGETS.cpu,
  ) || missed;
missed =
  judged(
    'CPU per answer, droidcheck pending / droidcheck instant',
    cpu('dc-pending'),
    cpu('dc-instant'),
    TARGETS.own,
  ) || missed;
// The third target's anchor: the same load's shape (sending and answering apart, a wake-up per
// webhook while nothing is sent) costs the minimal loop more per answer too.
judged(
  '(for reference) CPU per answer, minimal loop pending / minimal loop instant',
  cpu('min-pending'),
  cpu('min-instant'),
  TARGETS.own,
);
judged(
  '(for reference) CPU per answer, droidcheck / minimal loop, instant',
  cpu('dc-instant'),
  cpu('min-instant'),
  TARGETS.cpu,
);
const others = [...(baseline ? ['base'] : []), ...variants.map((v) => v.name)];
for (const other of others) {
  for (const [dc, base] of [
    ['dc-instant', `${other}-instant`],
    ['dc-pending', `${other}-pending`],
  ]) {
    if (!results[dc] || !results[base]) continue;
    const rr = rss(dc).map((v, i) => v / rss(base)[i]);
    const cr = cpu(dc).map((v, i) => v / cpu(base)[i]);
    console.log(`${dc} / ${base}: peak RSS ${spread(rr)} | CPU per answer ${spread(cr)}`);
  }
}
process.exit(missed ? 1 : 0);
