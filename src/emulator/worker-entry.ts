/**
 * Worker-thread entry: runs one emulator on its own event loop, so the harness that measures
 * it (client, receiver, timers) shares no event loop with the system under test.
 * Protocol: workerData = serialisable EmulatorOptions (and how to build its tracer: worker-host.ts
 * WorkerTracing); posts {type:'ready', url, token, droidId,
 * testCustomerId} or {type:'error', message}; answers {type:'stats'} and {type:'close'}.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createEmulator, type Emulator, type EmulatorTracer } from './index.js';
import type { EmulatorWorkerOptions } from './worker-host.js';

const port = parentPort;
if (!port) throw new Error('worker-entry must run in a worker thread');

let emulator: Emulator | undefined;

async function start(): Promise<void> {
  try {
    const { tracing, ...options } = workerData as EmulatorWorkerOptions;
    // The tracer's module is named by the host (an edge injected across the thread: tracing.ts).
    const tracer = tracing
      ? await (
          (await import(tracing.module)) as { createEmulatorTracer(s: unknown): Promise<EmulatorTracer> }
        ).createEmulatorTracer(tracing.settings)
      : undefined;
    emulator = await createEmulator({ ...options, ...(tracer && { tracer }) });
    const url = await emulator.listen();
    port!.postMessage({
      type: 'ready',
      url,
      token: emulator.token,
      droidId: emulator.droidId,
      testCustomerId: emulator.testCustomerId,
    });
  } catch (err) {
    port!.postMessage({ type: 'error', message: err instanceof Error ? err.message : String(err) });
  }
}

port.on('message', (msg: { type: string; id?: number }) => {
  if (msg.type === 'stats') {
    port.postMessage({ type: 'stats', id: msg.id, stats: emulator?.stats() });
  } else if (msg.type === 'close') {
    void (emulator?.close() ?? Promise.resolve()).finally(() => {
      port.postMessage({ type: 'closed' });
      port.close();
    });
  }
});

void start();
