/**
 * Tracked timers: every pending delay of the emulator (acknowledgement, answer, retry
 * backoff, late delivery) lives here so `close()` can cancel them all at once.
 */

export class TimerSet {
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly sleepers = new Set<(elapsed: boolean) => void>();
  private closed = false;

  get size(): number {
    return this.timers.size;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Runs `fn` after `ms` unless cleared first. Does nothing once closed. */
  after(ms: number, fn: () => void): void {
    if (this.closed) return;
    const t = setTimeout(() => {
      this.timers.delete(t);
      fn();
    }, ms);
    this.timers.add(t);
  }

  /** Resolves true after `ms`, or false at once when cleared (or already closed). */
  sleep(ms: number): Promise<boolean> {
    if (this.closed) return Promise.resolve(false);
    if (ms <= 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const wake = (elapsed: boolean) => {
        this.sleepers.delete(wake);
        resolve(elapsed);
      };
      this.sleepers.add(wake);
      this.after(ms, () => wake(true));
    });
  }

  /** Cancels every pending timer and wakes every sleeper with false; no new timers after this. */
  close(): void {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    for (const wake of [...this.sleepers]) wake(false);
  }
}
