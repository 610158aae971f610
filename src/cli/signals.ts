/**
 * Interrupt handling (exit 130, docs/exit-codes.md): the first SIGINT/SIGTERM stops new requests
 * and gives in-flight ones `graceMs` to end; then (or on a second signal) they are cancelled. The
 * run still writes its partial report.
 */
import { setMaxListeners } from 'node:events';

export interface InterruptControl {
  stopSignal: AbortSignal;
  abortSignal: AbortSignal;
  /** The signal that interrupted the run, if any. */
  readonly received: NodeJS.Signals | undefined;
  dispose(): void;
}

export function installInterruptHandlers(graceMs: number, onFirst?: (sig: NodeJS.Signals) => void): InterruptControl {
  const stop = new AbortController();
  const abort = new AbortController();
  // Every in-flight request listens on these signals: thousands under load is expected.
  setMaxListeners(0, stop.signal, abort.signal);
  let received: NodeJS.Signals | undefined;
  let timer: NodeJS.Timeout | undefined;
  const handler = (sig: NodeJS.Signals): void => {
    if (!received) {
      received = sig;
      onFirst?.(sig);
      stop.abort();
      timer = setTimeout(() => abort.abort(), graceMs);
      timer.unref();
    } else {
      abort.abort();
    }
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return {
    stopSignal: stop.signal,
    abortSignal: abort.signal,
    get received() {
      return received;
    },
    dispose() {
      if (timer) clearTimeout(timer);
      process.off('SIGINT', handler);
      process.off('SIGTERM', handler);
    },
  };
}
