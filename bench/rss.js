/**
 * RSS per pending async request: the memory the operating system sees in the `droidcheck load`
 * process (the real CLI: engine, client, embedded receiver, histograms, reports) while async
 * requests wait for their webhook, beside an anchor measured in the same run: a minimal undici
 * + node:http loop holding the same number of pending requests (bench/rss-anchor-client.js:
 * posts, keeps a promise per requestId in a Map, a node:http receiver resolves it; its target,
 * bench/rss-anchor-server.js, acks at once and POSTs the webhook later).
 *
 * Both generators send at --rate (open model) in processes of their own, at the same time, each
 * against its own target (the emulator with --answer-delay past the end of the run, and the
 * anchor server), so no answer arrives while measuring. When each reaches a size in --sizes
 * pending, its RSS is read (/proc VmRSS, as it is), then its heap after two full collections
 * (a preloaded probe, bench/mem-probe.js). Per pending request = (RSS now - RSS before the first
 * send) / pending. The receiver's share of the heap is measured last, in a process of its own
 * (bench/rss-receiver-share.js: the same number of waiters parked on a bare receiver). Targets (1,000/s, answers not yet due): droidcheck RSS < 260 MB with 60,000
 * pending and < 400 MB with 120,000.
 *
 *   npm run build && node bench/rss.js [--sizes 10000,60000,120000] [--rate 1000] [--sequential] [--snapshot DIR] [--detail] [--node-flags '--max-semi-space-size=8'] [--dist DIR] [--scenarios PATH]
 *
 * Bounded: max(--sizes) / --rate seconds to fill (120 s by default) + start-up; each process is
 * killed at the end, or after fill time + 60 s. `--sequential` runs the anchor after droidcheck
 * (twice as long, no sharing of the cores). `--snapshot DIR` writes a heap snapshot of each
 * process at the first size (read it with bench/heap-top.js); `--detail` prints each reading's
 * V8 figures (heap total and used before GC, external, space sizes); `--node-flags` are given
 * to the droidcheck process only (to try V8 settings); `--dist DIR` measures the CLI of another
 * build (e.g. the commit before a change: its figures are the "before"); `--scenarios PATH` sends
 * those suites (`--exclude-tag steps`, async) instead of the bench's one scenario.
 */
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { arg, argString, boxLoad, freePort, loadArgv, sleep, startEmulatorChild } from './lib.js';

const sizes = argString('sizes', '10000,60000,120000')
  .split(',')
  .map(Number)
  .sort((a, b) => a - b);
const rate = arg('rate', 1000);
const sequential = process.argv.includes('--sequential');
const snapshotDir = argString('snapshot', undefined);
const detail = process.argv.includes('--detail');
const nodeFlags = argString('node-flags', '').split(' ').filter(Boolean);
const dist = argString('dist', fileURLToPath(new URL('../dist', import.meta.url)));
const scenarios = argString('scenarios', undefined);
const max = sizes.at(-1);
const fillS = max / rate;
const delayMs = (fillS + 120) * 1000;
const START_MS = 10_000; // start-up of the CLI on a loaded box; both send from then on
const TARGETS = { 60000: 260, 120000: 400 }; // MB of RSS, droidcheck load

const here = (f) => fileURLToPath(new URL(f, import.meta.url));
const PROBE = ['--expose-gc', '--import', here('./mem-probe.js')];
const MB = 1e6;

function ask(child, message) {
  const reply = once(child, 'message');
  child.send(message);
  return reply.then(([m]) => m);
}

/** The droidcheck load CLI against the emulator (answers delayed past the run); pending = accepted by the emulator. */
async function droidcheck() {
  const port = await freePort();
  const emu = await startEmulatorChild({ webhookUrl: `http://127.0.0.1:${port}/webhook`, answerDelayMs: delayMs });
  const reports = await mkdtemp(join(tmpdir(), 'droidcheck-rss-'));
  const startAt = new Date(Date.now() + START_MS).toISOString();
  const [main, ...args] = loadArgv({
    main: join(dist, 'cli/main.js'),
    path: scenarios ?? here('./fixtures/bench.yaml'),
    rate,
    seconds: Math.ceil(fillS) + 5,
    emu,
    port,
    reportDir: reports,
    timeout: `${Math.ceil(delayMs / 1000) + 60}s`,
    extra: [
      ...(scenarios ? ['--exclude-tag', 'steps'] : []),
      '--mode',
      'async',
      '--max-requests',
      String(max),
      '--max-in-flight',
      String(max + 1000),
      '--start-at',
      startAt,
      '--progress',
      '0',
    ],
  });
  const child = fork(main, args, {
    execArgv: [...PROBE, ...nodeFlags],
    env: { ...process.env, DROID_API_TOKEN: emu.token },
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  let err = '';
  child.stderr.on('data', (c) => (err = (err + c).slice(-2000)));
  return {
    name: 'droidcheck load',
    child,
    pending: async () => (await emu.stats()).accepted,
    tail: () => err.trim(),
    close: async () => {
      child.kill('SIGKILL');
      await emu.close();
      await rm(reports, { recursive: true, force: true });
    },
  };
}

/** The anchor: rss-anchor-client.js against rss-anchor-server.js; pending = the client's Map. */
async function anchor() {
  const port = await freePort();
  const server = fork(
    here('./rss-anchor-server.js'),
    ['--webhook-url', `http://127.0.0.1:${port}/webhook`, '--delay-ms', String(delayMs)],
    { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
  );
  const [{ baseUrl }] = await once(server, 'message');
  const child = fork(
    here('./rss-anchor-client.js'),
    [
      '--base-url',
      baseUrl,
      '--port',
      String(port),
      '--rate',
      String(rate),
      '--count',
      String(max),
      '--start-ms',
      String(START_MS),
    ],
    { execArgv: PROBE, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
  );
  return {
    name: 'minimal undici loop',
    child,
    pending: async () => (await ask(child, 'mem')).pending ?? 0,
    tail: () => '',
    close: async () => {
      child.kill('SIGKILL');
      server.kill('SIGKILL');
    },
  };
}

/** Base reading before the first send, then one reading as pending crosses each size. */
async function measure(gen) {
  const readings = [];
  await sleep(START_MS - 700);
  const base = await ask(gen.child, 'mem');
  const until = Date.now() + START_MS + (fillS * 1.5 + 60) * 1000; // a loaded box sends late
  for (const size of sizes) {
    let pending = 0;
    while ((pending = await gen.pending()) < size && Date.now() < until && gen.child.exitCode === null)
      await sleep(250);
    if (pending < size) {
      console.log(
        `  ${gen.name}: only ${pending} of ${size} pending (${gen.child.exitCode !== null ? `exited ${gen.child.exitCode}: ${gen.tail()}` : 'fell behind; try a lower --rate'})`,
      );
      break;
    }
    const m = await ask(gen.child, 'mem');
    readings.push({ size, pending, ...m });
    if (detail) {
      const f = (b) => `${(b / MB).toFixed(0)} MB`;
      console.log(
        `  ${gen.name} at ${pending}: RSS ${f(m.rss)} (after GC ${f(m.rssAfterGc)}, peak ${f(m.peakRss)}); heap total ${f(m.heapTotalBeforeGc)}, used ${f(m.heapUsedBeforeGc)} -> ${f(m.heapUsed)} after GC; external ${f(m.externalBeforeGc)}; V8 spaces MB ${JSON.stringify(m.spaces)}`,
      );
    }
    if (snapshotDir && size === sizes[0]) {
      const { file } = await ask(gen.child, {
        snapshot: join(snapshotDir, `${gen.name.replaceAll(' ', '-')}-${size}.heapsnapshot`),
      });
      console.log(
        `  ${gen.name}: heap snapshot at ${pending} pending: ${file} (node bench/heap-top.js ${file} --per ${pending})`,
      );
    }
  }
  await gen.close();
  return { base, readings };
}

console.log(
  `rss: memory per pending async request at ${sizes.join(', ')} pending, ${rate} req/s, answers delayed ${delayMs / 1000} s; ${sequential ? 'one after the other' : 'both at once'}; ${boxLoad()}`,
);
let dc;
let an;
if (sequential) {
  dc = await measure(await droidcheck());
  an = await measure(await anchor());
} else {
  [dc, an] = await Promise.all([droidcheck().then(measure), anchor().then(measure)]);
}

const per = (r, base, key) => (r[key] - base[key]) / r.pending;
const mb = (b) => `${(b / MB).toFixed(0)} MB`;
console.log(
  `base before sending: droidcheck RSS ${mb(dc.base.rss)}, heap ${mb(dc.base.heapUsed)} | anchor RSS ${mb(an.base.rss)}, heap ${mb(an.base.heapUsed)}`,
);
let missed = false;
for (const size of sizes) {
  const d = dc.readings.find((r) => r.size === size);
  const a = an.readings.find((r) => r.size === size);
  if (!d || !a) continue;
  const target = TARGETS[size];
  const verdict =
    target === undefined
      ? ''
      : d.rss / MB < target
        ? ` | target RSS < ${target} MB OK`
        : ` | target RSS < ${target} MB MISSED by ${((d.rss / MB / target - 1) * 100).toFixed(0)}%`;
  if (target !== undefined && d.rss / MB >= target) missed = true;
  console.log(
    `${String(size).padStart(7)} pending: droidcheck RSS ${mb(d.rss)} (${per(d, dc.base, 'rss').toFixed(0)} B/request), heap ${mb(d.heapUsed)} (${per(d, dc.base, 'heapUsed').toFixed(0)} B/request)` +
      ` | anchor RSS ${mb(a.rss)} (${per(a, an.base, 'rss').toFixed(0)} B/request), heap ${mb(a.heapUsed)} (${per(a, an.base, 'heapUsed').toFixed(0)} B/request)` +
      ` | ratio RSS/request ${(per(d, dc.base, 'rss') / per(a, an.base, 'rss')).toFixed(2)}${verdict}`,
  );
}
if (dc.readings.length >= 2) {
  const [first, last] = [dc.readings[0], dc.readings.at(-1)];
  console.log(
    `droidcheck growth between ${first.size} and ${last.size} pending: ${((last.rss - first.rss) / (last.pending - first.pending)).toFixed(0)} B RSS, ${((last.heapUsed - first.heapUsed) / (last.pending - first.pending)).toFixed(0)} B heap per request (linear when close to the per-request figures)`,
  );
}
// Which share is the receiver's: its waiters alone, in a process of their own.
const last = dc.readings.at(-1);
if (last) {
  const share = fork(here('./rss-receiver-share.js'), ['--count', String(last.pending)], {
    execArgv: ['--expose-gc'],
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  let out = '';
  share.stdout.on('data', (c) => (out += c));
  await once(share, 'exit');
  const r = JSON.parse(out);
  const total = per(last, dc.base, 'heapUsed');
  console.log(
    `share at ${last.pending} pending: receiver (its waiters alone) ${r.heapPerWaiter.toFixed(0)} B heap/request, runner + client + the rest ${(total - r.heapPerWaiter).toFixed(0)} B (${((r.heapPerWaiter / total) * 100).toFixed(0)}% receiver of ${total.toFixed(0)} B heap/request)`,
  );
}
process.exit(missed ? 1 : 0);
