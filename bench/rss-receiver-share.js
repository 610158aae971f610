/**
 * The receiver's share of the memory per pending async request (bench/rss.js): a receiver as
 * `droidcheck load` embeds it, with --count waiters parked on it as the runner parks them (one
 * waitFor per requestId, a 180 s deadline, the run-wide AbortSignal), and nothing else. Prints
 * one JSON line: heap and RSS per waiter after two full collections.
 *   node --expose-gc bench/rss-receiver-share.js --count 60000
 */
import { randomUUID } from 'node:crypto';
import { createReceiver } from '../dist/index.js';
import { arg } from './lib.js';

const count = arg('count', 60_000);
const receiver = createReceiver({ secret: null });
await receiver.listen();
const signal = new AbortController().signal;
// The ids as the runner has them: strings parsed out of an acknowledgement's JSON.
const ids = Array.from({ length: count }, () => JSON.parse(`{"requestId":"${randomUUID()}"}`).requestId);
gc();
gc();
const before = process.memoryUsage();
const deadline = performance.now() + 180_000;
const waits = ids.map((id) => receiver.waitFor(id, deadline, signal));
gc();
gc();
const after = process.memoryUsage();
console.log(
  JSON.stringify({
    count: waits.length,
    heapPerWaiter: (after.heapUsed - before.heapUsed) / count,
    rssPerWaiter: (after.rss - before.rss) / count,
  }),
);
await receiver.close();
process.exit(0);
