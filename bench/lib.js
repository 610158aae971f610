/**
 * Shared helpers of the benchmarks (plain node, against the built ../dist). The emulator
 * runs in a child process (its own core), like a real target; everything on 127.0.0.1.
 */
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

const CHILD = fileURLToPath(new URL('./emulator-child.js', import.meta.url));

/**
 * Starts the emulator in a child process. `webhookUrl`: where it delivers answers (default: a
 * sink in the child that answers 200). Resolves { baseUrl, token, droidId, close() }.
 */
export async function startEmulatorChild(options = {}) {
  const child = fork(CHILD, [JSON.stringify(options)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const [info] = await once(child, 'message');
  return {
    ...info,
    stats: async () => {
      child.send('stats');
      const [s] = await once(child, 'message');
      return s;
    },
    close: async () => {
      child.send('close');
      await once(child, 'exit');
    },
  };
}

export const scenario = (name = 'hello', humanMessage = 'Hello there!') => ({
  suite: 'bench', name, file: 'bench.yaml', location: { file: 'bench.yaml', line: 1, col: 1 },
  tags: [], modes: undefined, chatHistory: [], humanMessage, expect: [],
});
export const suites = () => [{ name: 'bench', file: 'bench.yaml', scenarios: [scenario()] }];

export const ASYNC_BODY = JSON.stringify({ humanMessage: { content: 'Hello there!', type: 'human' }, chatHistory: [] });

export function arg(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] !== undefined ? Number(process.argv[i + 1]) : fallback;
}

export function verdict(label, value, anchor, anchorLabel, unit = 'req/s', ratioTarget) {
  const ratio = anchor > 0 ? value / anchor : NaN;
  const line = `${label}: ${value.toFixed(0)} ${unit} | ${anchorLabel}: ${anchor.toFixed(0)} ${unit} | ratio ${ratio.toFixed(2)}`;
  const miss = ratioTarget !== undefined && ratio < ratioTarget ? `  MISSED: ${((1 - ratio / ratioTarget) * 100).toFixed(1)}% short of ${ratioTarget}x` : '';
  console.log(line + miss);
  return ratio;
}

/** Waits until the emulator has delivered every accepted answer (no backlog into the next run). */
export async function drained(emu, maxMs = 60_000) {
  const until = Date.now() + maxMs;
  for (;;) {
    const s = await emu.stats();
    if (s.delivered + s.deliveryFailures + s.dropped >= s.accepted || Date.now() > until) return s;
    await new Promise((r) => setTimeout(r, 200));
  }
}
