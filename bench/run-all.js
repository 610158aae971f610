/**
 * Runs every benchmark in turn (each in its own node process). Build first: npm run build.
 * Figures depend on the host: run on an otherwise idle machine.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('.', import.meta.url));
const runs = [
  ['emulator-ack.js', '--connections', '64', '--seconds', '10'],
  ['ack-closed.js', '--connections', '64', '--seconds', '10'],
  ['async-e2e.js', '--rate', '6000', '--seconds', '10'],
  ['receiver.js', '--connections', '64', '--seconds', '10'],
  ['--expose-gc', 'memory.js', '--pending', '100000', '--rate', '5000'],
  ['scale-async.js', '--requests', '20000', '--rate', '1200'],
  ['--expose-gc', 'held-sync.js', '--count', '2000', '--rate', '2000', '--hold-ms', '5000'],
];
for (const args of runs) {
  const file = args.find((a) => a.endsWith('.js'));
  console.log(`\n== ${file}`);
  const full = args.map((a) => (a.endsWith('.js') ? `${dir}${a}` : a));
  spawnSync(process.execPath, full, { stdio: 'inherit' });
}
