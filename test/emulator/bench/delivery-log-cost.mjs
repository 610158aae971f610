// Per-add cost of the emulator's webhook delivery log at full capacity (issue 10, part 4).
// Run after `npm run build`: node test/emulator/bench/delivery-log-cost.mjs [module.js]
// Prints microseconds per add() once the log holds its 10,000 entries (each add then drops the
// oldest). An optional argument names another build of delivery-log.js (e.g. the old one) to
// measure side by side.
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';

const target = process.argv[2] ? pathToFileURL(process.argv[2]).href : '../../../dist/emulator/delivery-log.js';
const { DeliveryLog } = await import(target);
console.log(`DeliveryLog from ${target}`);

const CAPACITY = 10_000;
const ADDS = 50_000;
const log = new DeliveryLog(7 * 24 * 3600 * 1000, () => new Date(), CAPACITY);
const payload = { requestId: 'tpa-x', answer: 'hello' };
const entry = (i) => ({
  kind: "answer",
  startedAtMs: 1_700_000_000_000 + i,
  requestId: `tpa-${i}`,
  attempt: 1,
  targetUrl: 'http://127.0.0.1:9/webhook',
  status: 200,
  ok: true,
  durationMs: 1.5,
  error: '',
  timestamp: new Date(1_700_000_000_000 + i).toISOString(),
  requestPayload: payload,
  responseBody: '{"ok":true}',
});
for (let i = 0; i < CAPACITY; i++) log.add(entry(i));
const entries = Array.from({ length: ADDS }, (_, i) => entry(CAPACITY + i));
for (let round = 0; round < 3; round++) {
  const t0 = performance.now();
  for (let i = 0; i < ADDS; i++) log.add(entries[i]);
  const us = ((performance.now() - t0) * 1000) / ADDS;
  console.log(`round ${round + 1}: ${us.toFixed(3)} us per add at ${log.size} entries (${ADDS} adds)`);
}
