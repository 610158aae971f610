/**
 * What one pending async request retains in the generator, in process: the engine (open model),
 * the client and the receiver as `droidcheck load` wires them, against a bare node:http target
 * in the same process that acknowledges every request with a fresh requestId and never answers
 * (so it holds nothing per request). The load sends --count requests, pauses, then --count more;
 * the heap is read after two full collections once each batch is pending, and the difference of
 * the two readings divided by --count is the heap per pending request (the run's fixed costs:
 * histograms, connections, compiled code, cancel out). With --by-kind, a heap snapshot is taken
 * at both readings and the objects that differ are listed by kind, per pending request.
 *
 *   npm run build && node --expose-gc bench/pending-heap.js [--count 5000] [--rate 2500] [--by-kind] [--top 25] [--dist DIR]
 *
 * The same measurement guards the figure in the unit suite (test/runner/pending-memory.test.ts).
 * Bounded: 2 x --count requests, each reading waits for its batch at most the pause + 60 s.
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeHeapSnapshot } from 'node:v8';
import { Agent } from 'undici';
import { arg, argString, boxLoad, SECRET, sleep } from './lib.js';

if (!globalThis.gc) {
  console.error('run with node --expose-gc bench/pending-heap.js');
  process.exit(2);
}
const count = arg('count', 5000);
const rate = arg('rate', 2500);
const top = arg('top', 25);
const byKind = process.argv.includes('--by-kind');
const dist = argString('dist', fileURLToPath(new URL('../dist', import.meta.url)));
const { createReceiver, DroidClient, loadSuites } = await import(join(dist, 'index.js'));
const { headerTracer, MixSource, runEngine } = await import(join(dist, 'runner/index.js'));

// The target: acknowledges at once with a requestId of the service's shape, never answers.
let n = 0;
const target = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    n += 1;
    const id = `tpa-bench0000000000${n.toString(36).padStart(10, '0')}`;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(`{"success":true,"requestId":"${id}","message":"Processing started"}`);
  });
});
target.listen(0, '127.0.0.1');
await once(target, 'listening');
const baseUrl = `http://127.0.0.1:${target.address().port}`;

const receiver = createReceiver({ secret: SECRET });
await receiver.listen();
// At most 32 connections (the job's Agent has no bound): a stall of the box would otherwise open
// one per request in flight, tens of KB each, and the two readings would differ by them.
const dispatcher = new Agent({ keepAliveTimeout: 60_000, connections: 32 });
const client = new DroidClient({ baseUrl, droidId: 1, token: 'bench-token', dispatcher });
const suites = await loadSuites([fileURLToPath(new URL('./fixtures/bench.yaml', import.meta.url))]);
const stop = new AbortController();
const abort = new AbortController();
const batchMs = (count / rate) * 1000;
// Long enough for the first reading (a heap snapshot of the whole heap, with --by-kind, takes seconds).
const PAUSE_MS = byKind ? 180_000 : 30_000;

const run = runEngine({
  source: MixSource.of(suites, { seed: 1 }),
  scheduler: {
    kind: 'open',
    startRate: rate,
    // A batch, a pause (rate 0) while the first reading is taken, a second batch, a pause for the second.
    stages: [
      { durationMs: batchMs, target: rate },
      { durationMs: 0, target: 0 },
      { durationMs: PAUSE_MS, target: 0 },
      { durationMs: 0, target: rate },
      { durationMs: batchMs, target: rate },
      { durationMs: 0, target: 0 },
      { durationMs: PAUSE_MS, target: 0 },
    ],
    maxInFlight: 3 * count,
    maxRequests: 2 * count,
  },
  client,
  receiver,
  timeoutMs: 600_000,
  drainTimeoutMs: PAUSE_MS,
  skipGraded: true,
  // As a job sends by default: a trace context per conversation (runner/trace.ts).
  tracer: headerTracer(),
  traceContext: true,
  stopSignal: stop.signal,
  abortSignal: abort.signal,
});

/** Waits until `k` requests are pending on the receiver; the heap after two full collections. */
async function reading(k) {
  const until = Date.now() + PAUSE_MS + 60_000;
  while (receiver.pendingCount() < k && Date.now() < until) await sleep(20);
  const pending = receiver.pendingCount();
  gc();
  gc();
  return { pending, heap: process.memoryUsage().heapUsed };
}

/** Self size and count per kind of object (type and constructor name) of a heap snapshot. */
function kinds(file) {
  const snap = JSON.parse(readFileSync(file, 'utf8'));
  const {
    node_fields: fields,
    node_types: [types],
  } = snap.snapshot.meta;
  const w = fields.length;
  const [iType, iName, iSize] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f));
  const out = new Map();
  for (let i = 0; i < snap.nodes.length; i += w) {
    const type = types[snap.nodes[i + iType]];
    let name = snap.strings[snap.nodes[i + iName]];
    if (type.includes('string')) name = '';
    else if (name.length > 50) name = `${name.slice(0, 47)}...`;
    const key = `${type} ${name}`;
    const g = out.get(key) ?? { count: 0, bytes: 0 };
    g.count += 1;
    g.bytes += snap.nodes[i + iSize];
    out.set(key, g);
  }
  return out;
}

console.log(`pending-heap: ${count} + ${count} pending async requests at ${rate}/s, in process; ${boxLoad()}`);
const first = await reading(count);
const snap1 = byKind ? writeHeapSnapshot(join(tmpdir(), `pending-heap-1-${process.pid}.heapsnapshot`)) : undefined;
const second = await reading(2 * count);
const snap2 = byKind ? writeHeapSnapshot(join(tmpdir(), `pending-heap-2-${process.pid}.heapsnapshot`)) : undefined;
stop.abort();
abort.abort();
await run;
await dispatcher.close();
await receiver.close();
target.close();
const added = second.pending - first.pending;
if (first.pending !== count || second.pending !== 2 * count)
  console.log(
    `  pending at the readings: ${first.pending} and ${second.pending} (expected ${count} and ${2 * count}: the box fell behind; lower --rate)`,
  );
console.log(
  `heap per pending request: ${((second.heap - first.heap) / added).toFixed(0)} B (${(first.heap / 1e6).toFixed(1)} MB at ${first.pending} pending, ${(second.heap / 1e6).toFixed(1)} MB at ${second.pending})`,
);
if (snap1 && snap2) {
  const a = kinds(snap1);
  const b = kinds(snap2);
  rmSync(snap1);
  rmSync(snap2);
  const rows = [...b].map(([k, g]) => {
    const o = a.get(k) ?? { count: 0, bytes: 0 };
    return { k, count: (g.count - o.count) / added, bytes: (g.bytes - o.bytes) / added };
  });
  const total = rows.reduce((s, r) => s + r.bytes, 0);
  console.log(`by kind, per pending request (snapshot self sizes, total ${total.toFixed(0)} B):`);
  for (const r of rows.sort((x, y) => y.bytes - x.bytes).slice(0, top))
    console.log(`  ${r.bytes.toFixed(0).padStart(6)} B  ${r.count.toFixed(2).padStart(6)} objects  ${r.k}`);
}
process.exit(0);
