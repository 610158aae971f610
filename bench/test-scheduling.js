/**
 * Test scheduling: how late a process's timers fire beside busy loops, by the scheduling class
 * `npm test` could give the unit project while the timing project runs (test/run.mjs): normal,
 * nice 10 (what it uses), nice 19, SCHED_IDLE (what it used before). A unit test with a
 * real-time window (a burst's 300 ms gap against a 1 s answer) fails when its timers fire that
 * much late. The anchor is the same probe at the normal priority, in the same run.
 *
 * Then the other direction: the probe at normal priority beside four busy loops at nice 10 and
 * under SCHED_IDLE (the timing project beside a busy unit project).
 *
 * Each probe: 300 timers of 10 ms one after the other (~3 s), the lateness of each (fired minus
 * due, ms); printed: p50, p99, max, and max / the anchor's max. Linux only (nice, chrt). Bounded:
 * every probe is killed after 60 s, every busy loop at the end of its part.
 *
 *   node bench/test-scheduling.js [--loops 2]
 */
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { arg, boxLoad } from './lib.js';

const loops = arg('loops', 2);
const PROBE = `
const late = [];
for (let i = 0; i < 300; i++) {
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, 10));
  late.push(performance.now() - t0 - 10);
}
console.log(JSON.stringify(late));
`;
/** The targets of this script: a unit test's timer is late by this much, its window fails. */
const TARGET_MAX_MS = 100;

/** `count` busy loops under `prefix` (a scheduling command line); a function that stops them. */
function busy(count, prefix = []) {
  const argv = [...prefix, process.execPath, '-e', 'for(;;){}'];
  const children = Array.from({ length: count }, () => spawn(argv[0], argv.slice(1), { stdio: 'ignore' }));
  return () => Promise.all(children.map((c) => (c.kill('SIGKILL'), once(c, 'exit'))));
}

/** One probe under `prefix`; its lateness figures, ms. */
async function probe(prefix) {
  const argv = [...prefix, process.execPath, '--input-type=module', '-e', PROBE];
  const child = spawn(argv[0], argv.slice(1), { stdio: ['ignore', 'pipe', 'inherit'] });
  const kill = setTimeout(() => child.kill('SIGKILL'), 60_000);
  let out = '';
  child.stdout.on('data', (c) => (out += c));
  await once(child, 'exit');
  clearTimeout(kill);
  const late = JSON.parse(out || '[]').sort((a, b) => a - b);
  const q = (p) => late[Math.min(late.length - 1, Math.floor(p * late.length))] ?? Number.NaN;
  return { p50: q(0.5), p99: q(0.99), max: late.at(-1) ?? Number.NaN };
}

const CLASSES = {
  normal: [],
  'nice 10': ['nice', '-n', '10'],
  'nice 19': ['nice', '-n', '19'],
  SCHED_IDLE: ['chrt', '--idle', '0'],
};
if (process.platform !== 'linux' || spawnSync('chrt', ['--idle', '0', 'true']).status !== 0) {
  console.log('test-scheduling: Linux with chrt (util-linux) only');
  process.exit(0);
}
console.log(`test-scheduling: 300 timers of 10 ms, their lateness; ${boxLoad()}`);
const line = (name, r, anchor) =>
  console.log(
    `  ${name.padEnd(44)} p50 ${r.p50.toFixed(1)} ms  p99 ${r.p99.toFixed(1)} ms  max ${r.max.toFixed(1)} ms  (max ${(r.max / anchor.max).toFixed(1)}x the anchor's)`,
  );

console.log(`the probe under each class, beside ${loops} busy loop(s) at normal priority:`);
let stop = busy(loops);
const results = {};
for (const [name, prefix] of Object.entries(CLASSES)) results[name] = await probe(prefix);
await stop();
for (const [name, r] of Object.entries(results)) line(name, r, results.normal);

console.log('the probe at normal priority, beside 4 busy loops of each class:');
for (const name of ['nice 10', 'SCHED_IDLE']) {
  stop = busy(4, CLASSES[name]);
  const r = await probe([]);
  await stop();
  line(`beside 4 loops at ${name}`, r, results.normal);
}
const chosen = results['nice 10'].max;
console.log(
  `nice 10 (test/run.mjs), max lateness beside busy loops: ${chosen.toFixed(1)} ms | target <= ${TARGET_MAX_MS} ms${chosen > TARGET_MAX_MS ? '  MISSED' : '  OK'}`,
);
