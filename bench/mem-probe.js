/**
 * Preloaded (`node --expose-gc --import ./mem-probe.js ...`) into a process the RSS bench
 * measures: on the IPC message 'mem' it answers the RSS the operating system sees as it is,
 * then the heap and RSS after two full collections. The IPC channel is unref'd so the probe
 * never keeps the process alive. `{ snapshot: FILE }` writes a V8 heap snapshot there (for
 * bench/heap-top.js).
 */
import { readFileSync } from 'node:fs';
import { getHeapSpaceStatistics, writeHeapSnapshot } from 'node:v8';

const vm = (key) =>
  Number(readFileSync('/proc/self/status', 'utf8').match(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm'))?.[1] ?? NaN) * 1024;

if (process.send) {
  process.channel?.unref();
  process.on('message', (m) => {
    if (typeof m === 'object' && m?.snapshot) return void process.send({ file: writeHeapSnapshot(m.snapshot) });
    if (m !== 'mem') return;
    const rss = vm('VmRSS');
    const before = process.memoryUsage();
    const spaces = Object.fromEntries(
      getHeapSpaceStatistics().map((x) => [x.space_name, Math.round(x.space_size / 1e6)]),
    );
    globalThis.gc?.();
    globalThis.gc?.();
    const u = process.memoryUsage();
    process.send({
      rss,
      peakRss: vm('VmHWM'),
      rssAfterGc: u.rss,
      heapUsed: u.heapUsed,
      external: u.external,
      arrayBuffers: u.arrayBuffers,
      pending: globalThis.__benchPending?.(),
      heapTotalBeforeGc: before.heapTotal,
      heapUsedBeforeGc: before.heapUsed,
      externalBeforeGc: before.external,
      spaces,
    });
  });
}
