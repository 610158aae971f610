/**
 * `startEmulatorWorker(options)`: the emulator in a worker thread (see worker-entry.ts), for
 * CLI runs where the emulator must not steal the measuring event loop. Runs from the built
 * `dist/` only (the entry is a compiled .js file).
 */
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import type { EmulatorOptions } from './options.js';
import type { EmulatorStats } from './stats.js';

export interface EmulatorWorker {
  url: string;
  token: string;
  droidId: number;
  testCustomerId: number | null;
  stats(): Promise<EmulatorStats>;
  close(): Promise<void>;
}

type Ready = { type: 'ready'; url: string; token: string; droidId: number; testCustomerId: number | null };
type Failed = { type: 'error'; message: string };

/** Starts the worker and resolves when the emulator listens. Options must be serialisable (no clock, no functions). */
export async function startEmulatorWorker(options: EmulatorOptions): Promise<EmulatorWorker> {
  const worker = new Worker(new URL('./worker-entry.js', import.meta.url), { workerData: options });
  const [first] = (await Promise.race([
    once(worker, 'message'),
    once(worker, 'error').then(([err]) => [{ type: 'error', message: (err as Error).message }]),
  ])) as [Ready | Failed];
  if (first.type === 'error') {
    await worker.terminate();
    throw new Error(`emulator worker failed to start: ${first.message}`);
  }
  let nextId = 0;
  let closing: Promise<void> | undefined;
  return {
    url: first.url,
    token: first.token,
    droidId: first.droidId,
    testCustomerId: first.testCustomerId,
    async stats() {
      const id = ++nextId;
      worker.postMessage({ type: 'stats', id });
      for (;;) {
        const [msg] = (await once(worker, 'message')) as [{ type: string; id?: number; stats: EmulatorStats }];
        if (msg.type === 'stats' && msg.id === id) return msg.stats;
      }
    },
    close() {
      closing ??= (async () => {
        const exited = once(worker, 'exit');
        worker.postMessage({ type: 'close' });
        const timer = setTimeout(() => void worker.terminate(), 10_000);
        await exited;
        clearTimeout(timer);
      })();
      return closing;
    },
  };
}
