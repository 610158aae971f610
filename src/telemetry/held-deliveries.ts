/**
 * The spans of webhook deliveries held open for their duplicates (docs/telemetry.md, Traces):
 * spans.ts opens a `webhook delivery` span per acknowledged async request and hands it here once
 * its answer arrived.
 */
import type { Span } from '@opentelemetry/api';

/** The engine's clock: `now()` in ms, and `epoch(ms)` mapping a clock reading to epoch ms. */
export interface DeliveryClock {
  now: () => number;
  epoch: (clockMs: number) => number;
}

/**
 * Delivery spans whose answer arrived, held open a while (their end time already fixed: the
 * arrival) so that the receiver's duplicate deliveries of their requestId become
 * `webhook.duplicate` events: a service may deliver a webhook more than once (spec: Events,
 * delivery notes), and droidcheck's own delivery span then shows it, as the emulator's shows the
 * copies it sent. A span is ended at the first of: HOLD_MS after its arrival, MAX_HELD newer ones
 * held, the job's end. A duplicate of a requestId not held yet (it came before the acknowledgement
 * that opened its span) waits for it, a few (MAX_EARLY) at most. Export on only: with it off
 * nothing here exists and the receiver calls nothing.
 */
export class HeldDeliveries {
  /** How long a delivered span stays open for duplicates, ms of the job's clock. */
  static readonly HOLD_MS = 10_000;
  /** Most spans held at once (the tail sampler remembers the last 10,000 decisions: tail.ts). */
  static readonly MAX_HELD = 4_096;
  /** Most requestIds whose duplicates wait for their span. */
  static readonly MAX_EARLY = 1_024;

  readonly #held = new Map<string, { span: Span; endAt: number; heldAt: number; copies: number }>();
  readonly #early = new Map<string, number[]>();

  constructor(private readonly t: DeliveryClock) {}

  /** `span`'s answer arrived at `at` (epoch ms): its end; held for the duplicates of `requestId`. */
  hold(requestId: string, span: Span, at: number): void {
    const now = this.t.now();
    this.#expire(now);
    const before = this.#held.get(requestId);
    // The same requestId delivered to two turns (a service that reuses ids): the older span ends.
    if (before) {
      before.span.end(before.endAt);
      this.#held.delete(requestId);
    }
    const entry = { span, endAt: at, heldAt: now, copies: 1 };
    this.#held.set(requestId, entry);
    const early = this.#early.get(requestId);
    if (early) {
      this.#early.delete(requestId);
      for (const receivedAtMs of early) this.#event(entry, receivedAtMs);
    }
    if (this.#held.size > HeldDeliveries.MAX_HELD) this.#endOldest();
  }

  /** The receiver counted a duplicate delivery of `requestId`, arrived at `receivedAtMs` (clock ms). */
  duplicate(requestId: string, receivedAtMs: number): void {
    const entry = this.#held.get(requestId);
    if (entry) {
      this.#event(entry, receivedAtMs);
      return;
    }
    const early = this.#early.get(requestId);
    if (early) early.push(receivedAtMs);
    else {
      this.#early.set(requestId, [receivedAtMs]);
      if (this.#early.size > HeldDeliveries.MAX_EARLY) this.#early.delete(this.#early.keys().next().value!);
    }
  }

  /** Ends every span held (the job's end: no more deliveries). */
  close(): void {
    for (const e of this.#held.values()) e.span.end(e.endAt);
    this.#held.clear();
    this.#early.clear();
  }

  #event(entry: { span: Span; copies: number }, receivedAtMs: number): void {
    entry.copies += 1;
    entry.span.addEvent('webhook.duplicate', { 'droidcheck.copy': entry.copies }, this.t.epoch(receivedAtMs));
  }

  #expire(now: number): void {
    for (const [id, e] of this.#held) {
      if (e.heldAt + HeldDeliveries.HOLD_MS > now) break;
      e.span.end(e.endAt);
      this.#held.delete(id);
    }
  }

  #endOldest(): void {
    const [id, e] = this.#held.entries().next().value!;
    e.span.end(e.endAt);
    this.#held.delete(id);
  }
}
