/**
 * Tracked timers: every pending delay of the emulator (acknowledgement, answer, retry
 * backoff, late delivery) lives here so `close()` can cancel them all at once.
 */

export class TimerSet {
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly sleepers = new Set<(elapsed: boolean) => void>();
  /** Work due now (`after(0)`: an answer with no delay), run in order from one setImmediate. */
  private due: (() => void)[] = [];
  private immediate: NodeJS.Immediate | undefined;
  private closed = false;

  get size(): number {
    return this.timers.size + this.due.length;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /**
   * Runs `fn` after `ms` unless cleared first. Does nothing once closed. `ms <= 0` runs it on the
   * next turn of the event loop, queued behind one shared setImmediate (no timer per answer).
   */
  after(ms: number, fn: () => void): void {
    if (this.closed) return;
    if (ms <= 0) {
      this.due.push(fn);
      this.immediate ??= setImmediate(() => this.runDue());
      return;
    }
    const t = setTimeout(() => {
      this.timers.delete(t);
      fn();
    }, ms);
    this.timers.add(t);
  }

  /**
   * Resolves true after at least `ms`, or false at once when cleared (or already closed). A
   * fault profile's `delay` is never shorter than asked: Node counts a timer from the loop's
   * whole-millisecond clock, so it may fire up to 1 ms early (a 1 s slow ack measured at 999.4 ms
   * is not over a 1 s line); the rest is slept again.
   */
  sleep(ms: number): Promise<boolean> {
    if (this.closed) return Promise.resolve(false);
    if (ms <= 0) return Promise.resolve(true);
    const until = performance.now() + ms;
    return new Promise((resolve) => {
      const wake = (elapsed: boolean) => {
        this.sleepers.delete(wake);
        resolve(elapsed);
      };
      const check = (): void => {
        const left = until - performance.now();
        if (left > 0) this.after(Math.ceil(left), check);
        else wake(true);
      };
      this.sleepers.add(wake);
      this.after(ms, check);
    });
  }

  private runDue(): void {
    this.immediate = undefined;
    const due = this.due;
    this.due = [];
    for (const fn of due) fn();
  }

  /** Cancels every pending timer and wakes every sleeper with false; no new timers after this. */
  close(): void {
    this.closed = true;
    if (this.immediate) clearImmediate(this.immediate);
    this.immediate = undefined;
    this.due = [];
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    for (const wake of [...this.sleepers]) wake(false);
  }
}
