/** Bounded waits (close() must end even when Redis does not answer). */
import { sleep } from '../clock.js';

/** `p`, or undefined after `ms` of real time (the bound of an I/O, not a measured wait; the timer is cleared either way). */
export async function within<T>(p: Promise<T>, ms: number): Promise<T | undefined> {
  const done = new AbortController();
  try {
    return await Promise.race([p, sleep(ms, { signal: done.signal }).then(() => undefined)]);
  } finally {
    done.abort();
  }
}
