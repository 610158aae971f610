/**
 * Preloaded (`node --import ./usage-probe.js ...`) into a process bench/pending.js measures: when
 * the process exits (process.exit included), writes its own resource usage as JSON to the file
 * named by BENCH_USAGE_FILE: CPU time (user + system, us), peak RSS (bytes: what `/usr/bin/time
 * -v` calls "Maximum resident set size") and the time since start (ms). Nothing else is done,
 * so the measured process runs as it would alone.
 */
import { writeFileSync } from 'node:fs';

const file = process.env.BENCH_USAGE_FILE;
if (file) {
  process.on('exit', () => {
    const u = process.resourceUsage();
    writeFileSync(
      file,
      JSON.stringify({
        cpuUs: u.userCPUTime + u.systemCPUTime,
        userUs: u.userCPUTime,
        systemUs: u.systemCPUTime,
        maxRss: u.maxRSS * 1024,
        uptimeMs: process.uptime() * 1000,
      }),
    );
  });
}
