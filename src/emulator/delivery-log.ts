/**
 * Webhook delivery log (spec: Other addresses, debug page: target URL, HTTP status, request
 * payload, response body, duration, error, timestamp; kept 7 days, then swept). Bounded: a ring
 * buffer of at most `maxEntries` (the oldest is overwritten), so a long load test cannot exhaust
 * memory and `add` costs the same with a full log as with an empty one (a former `splice` cost
 * ~59 us per delivery at 10,000 entries, which slowed the emulator under long load runs).
 */

/** Which webhook a delivery belongs to: the answer webhook, message forwarding, or an intent webhook. */
export type DeliveryKind = 'answer' | 'message' | 'intent';

export interface DeliveryLogEntry {
  /** Increasing id. */
  id: number;
  kind: DeliveryKind;
  /** What identifies the delivery: the requestId (answer), or the message's `mid` (message, intent). */
  requestId: string;
  /** 1-based attempt number. */
  attempt: number;
  /** Target URL without the secret or verify token. */
  targetUrl: string;
  /** HTTP status received; null when none (timeout, network error). */
  status: number | null;
  ok: boolean;
  durationMs: number;
  /** Error code or message; "" when none. */
  error: string;
  /** Wall-clock ISO 8601 time the attempt started. */
  timestamp: string;
  /** The payload sent (parsed from the JSON text kept in the log; the text itself when not JSON). */
  requestPayload: unknown;
  /** First bytes of the receiver's body. */
  responseBody: string;
}

export interface DeliveryLogQuery {
  status?: 'success' | 'failed' | number;
  kind?: DeliveryKind;
  /** Inclusive bounds on timestamp. */
  from?: Date;
  to?: Date;
  limit?: number;
}

/**
 * An entry as added: the start time in epoch ms instead of `timestamp`, and the payload as the
 * JSON text that was sent instead of `requestPayload`. A full log then holds 10,000 strings, not
 * 10,000 payload object graphs for every major GC to mark (so a full log is as fast as an empty
 * one); the ISO time and the parsed payload are built when queried.
 */
export type NewDeliveryLogEntry = Omit<DeliveryLogEntry, 'id' | 'timestamp' | 'requestPayload'> & {
  startedAtMs: number;
  requestBody: string;
};

/** What add() stores: the caller's object as is (no copy on the hot path) and its id. */
interface Slot {
  id: number;
  input: NewDeliveryLogEntry;
}

function parsePayload(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return body;
  }
}

/** The public entry of a slot, built when queried (rare: the debug page). */
function entryOf(slot: Slot): DeliveryLogEntry {
  const { startedAtMs, requestBody, ...rest } = slot.input;
  return {
    id: slot.id,
    ...rest,
    timestamp: new Date(startedAtMs).toISOString(),
    requestPayload: parsePayload(requestBody),
  };
}

export class DeliveryLog {
  /** Ring of slots; `head` is the next write position, `count` the entries held (oldest at head - count). */
  private slots: (Slot | undefined)[];
  private head = 0;
  private count = 0;
  private nextId = 1;

  constructor(
    private readonly retentionMs: number,
    private readonly now: () => Date,
    maxEntries = 10_000,
  ) {
    this.slots = new Array<Slot | undefined>(Math.max(1, maxEntries));
  }

  /** O(1): writes over the oldest entry when the log is full. Keeps `input` (do not mutate it afterwards). */
  add(input: NewDeliveryLogEntry): void {
    this.slots[this.head] = { id: this.nextId++, input };
    this.head = (this.head + 1) % this.slots.length;
    if (this.count < this.slots.length) this.count += 1;
  }

  /** Removes entries older than the retention; returns how many went. O(size); runs hourly and per debug-page view. */
  sweep(): number {
    const cutoff = this.now().getTime() - this.retentionMs;
    const kept: Slot[] = [];
    this.forEachOldestFirst((slot) => {
      if (slot.input.startedAtMs >= cutoff) kept.push(slot);
    });
    const removed = this.count - kept.length;
    if (removed === 0) return 0;
    this.slots = new Array<Slot | undefined>(this.slots.length);
    for (let i = 0; i < kept.length; i++) this.slots[i] = kept[i];
    this.count = kept.length;
    this.head = kept.length % this.slots.length;
    return removed;
  }

  get size(): number {
    return this.count;
  }

  /** Newest first. */
  query(q: DeliveryLogQuery = {}): DeliveryLogEntry[] {
    const out: DeliveryLogEntry[] = [];
    const limit = q.limit ?? 500;
    const from = q.from?.getTime();
    const to = q.to?.getTime();
    const n = this.slots.length;
    for (let k = 1; k <= this.count && out.length < limit; k++) {
      const slot = this.slots[(this.head - k + n) % n]!;
      const e = slot.input;
      if (q.status === 'success' && !e.ok) continue;
      if (q.status === 'failed' && e.ok) continue;
      if (typeof q.status === 'number' && e.status !== q.status) continue;
      if (q.kind !== undefined && e.kind !== q.kind) continue;
      if (from !== undefined && e.startedAtMs < from) continue;
      if (to !== undefined && e.startedAtMs > to) continue;
      out.push(entryOf(slot));
    }
    return out;
  }

  private forEachOldestFirst(fn: (slot: Slot) => void): void {
    const n = this.slots.length;
    for (let k = this.count; k >= 1; k--) fn(this.slots[(this.head - k + n) % n]!);
  }
}
