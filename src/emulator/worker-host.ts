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

/**
 * How the worker builds its tracer (tracing.ts): a tracer cannot cross threads, so the worker
 * imports `module` (a file URL) and calls its `createEmulatorTracer(settings)`.
 */
export interface WorkerTracing {
  module: string;
  settings: unknown;
}

/** The worker's options: serialisable EmulatorOptions (no clock, no tracer), and how to build its tracer. */
export type EmulatorWorkerOptions = Omit<EmulatorOptions, 'clock' | 'tracer'> & { tracing?: WorkerTracing | undefined };

/** Starts the worker and resolves when the emulator listens. Options must be serialisable (no clock, no functions). */
export async function startEmulatorWorker(options: EmulatorWorkerOptions): Promise<EmulatorWorker> {
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
