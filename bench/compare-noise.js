/**
 * How often does `compare` call two runs of the same code a regression? (A CI gate that fails
 * on noise gets switched off; docs/statistics.md.)
 *
 * Builds pairs of reports whose latencies are drawn from one distribution (seeded; ack ~2 ms
 * with a few cold connections, answer and sync ~30 ms, log-normal) with the real buildReport and
 * LatencyRecorder, compares each pair with compareReports, and prints the share that
 * "regressed"; then the same for a real 2x slowdown (which should be caught).
 *
 *   npm run build && node bench/compare-noise.js [--pairs 40] [--dist DIR]
 *
 * `--dist` points at another build (e.g. one of the code before the change) to compare.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    pairs: { type: 'string', default: '40' },
    dist: { type: 'string', default: new URL('../dist', import.meta.url).pathname },
  },
});
const dist = resolve(values.dist);
const { buildReport, compareReports } = await import(pathToFileURL(`${dist}/report/index.js`).href);
const { LatencyRecorder } = await import(pathToFileURL(`${dist}/metrics/index.js`).href);
const { mulberry32 } = await import(pathToFileURL(`${dist}/random.js`).href);
const { Tally } = await import(pathToFileURL(`${dist}/runner/index.js`).href);

function logNormal(random, median, sigma) {
  const u = Math.max(random(), 1e-12);
  const z = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
  return median * Math.exp(sigma * z);
}

/** One run: `n` scenarios in both modes, as `droidcheck run` records them. */
function report(seed, n, slowdown = 1) {
  const random = mulberry32(seed);
  const latency = new LatencyRecorder();
  const records = [];
  for (let i = 0; i < n; i++) {
    const cold = i < 2 ? 15 + 20 * random() : 0; // the first requests open connections
    const ackMs = (cold + logNormal(random, 2, 0.3)) * slowdown;
    const answerMs = logNormal(random, 35, 0.6) * slowdown;
    const syncMs = logNormal(random, 30, 0.6) * slowdown;
    latency.recordMs('ack', ackMs);
    latency.recordMs('answer', answerMs);
    latency.recordMs('sync', syncMs);
    const base = {
      suite: 'S',
      scenario: `s${i}`,
      file: 's.yaml',
      repeat: 0,
      outcome: 'answered',
      passed: true,
      startedAt: '2025-01-01T00:00:00.000Z',
      failures: [],
      contractViolations: [],
    };
    records.push(
      { ...base, seq: 2 * i, mode: 'async', ackMs, answerMs },
      { ...base, seq: 2 * i + 1, mode: 'sync', syncMs },
    );
  }
  const receiver = {
    received: n,
    matched: n,
    duplicates: 0,
    late: 0,
    orphans: 0,
    foreign: 0,
    badSecret: 0,
    malformed: 0,
    published: 0,
    unavailable: 0,
  };
  const tally = new Tally();
  for (const r of records) tally.add(r);
  return buildReport({
    kind: 'run',
    startedAt: '2025-01-01T00:00:00.000Z',
    finishedAt: '2025-01-01T00:00:01.000Z',
    durationMs: 1000,
    settings: {},
    tally: tally.snapshot(),
    records,
    latency,
    receiver,
    interrupted: false,
  });
}

const pairs = Number(values.pairs);
console.log(`build: ${dist}`);
for (const n of [16, 100, 500]) {
  let same = 0;
  let slower = 0;
  const fired = new Map();
  for (let p = 0; p < pairs; p++) {
    const cmp = compareReports(report(1000 + 2 * p, n), report(1001 + 2 * p, n));
    if (cmp.regressed) {
      same += 1;
      for (const l of cmp.latency.filter((x) => x.regressed))
        fired.set(`${l.metric}.${l.stat}`, (fired.get(`${l.metric}.${l.stat}`) ?? 0) + 1);
    }
    if (compareReports(report(5000 + 2 * p, n), report(5001 + 2 * p, n, 2)).regressed) slower += 1;
  }
  const rows = [...fired.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 4)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  console.log(
    `${String(n).padStart(3)} scenarios x 2 modes: same code regressed ${same}/${pairs} (${((100 * same) / pairs).toFixed(1)}%)${rows ? ` [${rows}]` : ''}; 2x slower caught ${slower}/${pairs}`,
  );
}
