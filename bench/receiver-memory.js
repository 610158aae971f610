/**
 * Receiver memory per pending answer waiter: what createReceiver holds for a request that was
 * acknowledged and waits for its webhook (the waiter, its promise and resolve function, the
 * deadline heap slot, the map and signal-set entries), measured in this process alone, without
 * the runner or the client. Registers --pending waiters (unique requestIds made before the first
 * reading, since the ids belong to the caller; one run-wide AbortSignal, as the runner passes),
 * then reads process.memoryUsage() after gc. The anchor, measured in the same run: the same
 * number of bare `new Promise()`s kept in a Map by the same ids (the least any promise-based
 * waiter can hold).
 * Target (receiver side of the load process's RSS budget, 260 MB with 60,000 pending): the
 * smaller the better; the figure is printed beside the anchor and the ratio.
 *
 *   npm run build && node --expose-gc bench/receiver-memory.js [--pending 60000] [--rounds 3] [--baseline DIR]
 *
 * `--baseline DIR`: measures the receiver of another build (a copy of dist/) too, for a before/after.
 * Bounded: rounds x (receiver [+ baseline] + anchor) x --pending registrations.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { arg, argString, median } from './lib.js';

if (!globalThis.gc) {
  console.error('run with node --expose-gc bench/receiver-memory.js');
  process.exit(2);
}
const pending = arg('pending', 60_000);
const rounds = arg('rounds', 3);
const baselineDir = argString('baseline', undefined);

const settle = async () => {
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((r) => setImmediate(r));
  }
  return process.memoryUsage();
};

/** Bytes per waiter (heapUsed and rss deltas) while `register(ids)` holds them. */
async function measure(label, setup) {
  const ids = Array.from(
    { length: pending },
    (_, i) => `tpa-${label}-${i.toString(36).padStart(8, '0')}-${Math.random().toString(36).slice(2, 10)}`,
  );
  const { register, close } = await setup();
  const before = await settle();
  const held = register(ids);
  const during = await settle();
  await close(held);
  return { heap: (during.heapUsed - before.heapUsed) / pending, rss: (during.rss - before.rss) / pending };
}

const receiverSetup = (dist) => async () => {
  await import(`${dist}tick-shape.js`).catch(() => undefined); // as the CLI runs it (cli/main.ts)
  const { createReceiver } = await import(`${dist}receiver/index.js`);
  const receiver = createReceiver({ secret: 'bench' });
  const run = new AbortController();
  return {
    register: (ids) => {
      const deadline = performance.now() + 3_600_000;
      const waits = ids.map((id) => receiver.waitFor(id, deadline, run.signal));
      if (receiver.pendingCount() !== ids.length)
        throw new Error(`only ${receiver.pendingCount()} of ${ids.length} waiters pending`);
      return waits;
    },
    close: async (waits) => {
      await receiver.close();
      await Promise.all(waits);
    },
  };
};

const anchorSetup = async () => {
  const map = new Map();
  return {
    register: (ids) => {
      for (const id of ids) {
        let resolveIt;
        void new Promise((r) => (resolveIt = r));
        map.set(id, resolveIt);
      }
      return map;
    },
    close: async (m) => {
      for (const r of m.values()) r();
      m.clear();
    },
  };
};

const kinds = [['droidcheck', receiverSetup(new URL('../dist/', import.meta.url).href)]];
if (baselineDir) kinds.push(['baseline', receiverSetup(pathToFileURL(`${resolve(baselineDir)}/`).href)]);
kinds.push(['anchor', anchorSetup]);
const results = Object.fromEntries(kinds.map(([k]) => [k, { heap: [], rss: [] }]));
console.log(
  `receiver memory: ${pending} pending answer waiters (one run-wide AbortSignal), ${rounds} rounds; node ${process.version}`,
);
for (let r = 0; r < rounds; r++) {
  const line = [];
  for (const [kind, setup] of kinds) {
    const m = await measure(`${kind}${r}`, setup);
    results[kind].heap.push(m.heap);
    results[kind].rss.push(m.rss);
    line.push(`${kind} heap ${m.heap.toFixed(0)} B, rss ${m.rss.toFixed(0)} B`);
  }
  console.log(`  round ${r + 1}: ${line.join(' | ')}`);
}
const fmt = (xs) => `${median(xs).toFixed(0)} B (${Math.min(...xs).toFixed(0)}-${Math.max(...xs).toFixed(0)})`;
for (const [kind] of kinds)
  console.log(
    `${kind}: heap per pending waiter ${fmt(results[kind].heap)}, RSS per pending waiter ${fmt(results[kind].rss)}`,
  );
const dc = median(results.droidcheck.heap);
const anchor = median(results.anchor.heap);
console.log(
  `droidcheck / anchor (a bare promise and its resolve in a Map), heap: ratio ${(dc / anchor).toFixed(2)}; at 60,000 pending the receiver holds ${((dc * 60_000) / 2 ** 20).toFixed(1)} MiB of heap`,
);
if (results.baseline)
  console.log(`droidcheck / baseline build, heap: ratio ${(dc / median(results.baseline.heap)).toFixed(2)}`);
process.exit(0);
