/**
 * Preloaded (`node --import ./usage-probe.js ...`) into a process bench/pending.js measures: when
 * the process exits (process.exit included), writes its own resource usage as JSON to the file
 * named by BENCH_USAGE_FILE: CPU time (user + system, us), peak RSS (bytes: what `/usr/bin/time
 * -v` calls "Maximum resident set size"), its voluntary context switches (every thread's waits:
 * a wake-up each) and the time since start (ms). Nothing else is done,
 * so the measured process runs as it would alone.
 *
 * With BENCH_ALLOC_PROFILE=FILE, it also samples every allocation of the process (V8's sampling
 * heap profiler, one sample per ~32 KB, collected objects included: what the garbage collector
 * has to deal with, not only what stays) and writes the profile to FILE at exit; read it with
 * `node bench/alloc-top.js FILE`.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';

const file = process.env.BENCH_USAGE_FILE;
const allocFile = process.env.BENCH_ALLOC_PROFILE;
let session;
if (allocFile) {
  session = new Session();
  session.connect();
  session.post('HeapProfiler.startSampling', {
    samplingInterval: 32 * 1024,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
}
if (file || allocFile) {
  process.on('exit', () => {
    if (session) {
      // A session on the process's own thread answers synchronously.
      session.post('HeapProfiler.stopSampling', (err, result) => {
        if (!err) writeFileSync(allocFile, JSON.stringify(result.profile));
      });
    }
    if (!file) return;
    const u = process.resourceUsage();
    writeFileSync(
      file,
      JSON.stringify({
        cpuUs: u.userCPUTime + u.systemCPUTime,
        userUs: u.userCPUTime,
        systemUs: u.systemCPUTime,
        maxRss: u.maxRSS * 1024,
        voluntaryContextSwitches: u.voluntaryContextSwitches,
        uptimeMs: process.uptime() * 1000,
      }),
    );
  });
}
