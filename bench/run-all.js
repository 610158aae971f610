/**
 * Runs every benchmark in turn (each in its own node process), with short settings; build
 * first (npm run build). Figures depend on the host: each script prints the box's load average.
 *
 *   npm run bench
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('.', import.meta.url));
const runs = [
  ['receiver.js', '--rounds', '5'],
  ['generator.js', '--rounds', '3'],
  ['telemetry.js', '--rounds', '3'],
  ['emulator-ack.js', '--rounds', '3'],
  ['ack-closed.js', '--rounds', '3'],
  ['async-e2e.js', '--rate', '2000', '--seconds', '6'],
  ['--expose-gc', 'memory.js', '--pending', '30000', '--rate', '1500'],
  ['rss.js', '--sizes', '10000,30000', '--rate', '1000'],
  ['scale-async.js', '--requests', '20000', '--rate', '1000'],
  ['--expose-gc', 'held-sync.js', '--count', '2000', '--rate', '2000', '--hold-ms', '5000'],
  ['compare-noise.js', '--pairs', '20'],
  ['test-scheduling.js'],
];
for (const args of runs) {
  const file = args.find((a) => a.endsWith('.js'));
  console.log(`\n== ${file}`);
  const full = args.map((a) => (a.endsWith('.js') ? `${dir}${a}` : a));
  spawnSync(process.execPath, full, { stdio: 'inherit' });
}
