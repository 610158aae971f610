/**
 * Webhook delivery log (spec: Other addresses, debug page: target URL, HTTP status, request
 * payload, response body, duration, error, timestamp; kept 7 days, then swept). Bounded: at
 * most `maxEntries` (oldest dropped first), so a long load test cannot exhaust memory.
 */

export interface DeliveryLogEntry {
  /** Increasing id. */
  id: number;
  requestId: string;
  /** 1-based attempt number. */
  attempt: number;
  /** Target URL without the secret. */
  targetUrl: string;
  /** HTTP status received; null when none (timeout, network error). */
  status: number | null;
  ok: boolean;
  durationMs: number;
  /** Error code or message; "" when none. */
  error: string;
  /** Wall-clock ISO 8601 time the attempt started. */
  timestamp: string;
  /** The payload sent (shared with the delivery, not copied). */
  requestPayload: unknown;
  /** First bytes of the receiver's body. */
  responseBody: string;
}

export interface DeliveryLogQuery {
  status?: 'success' | 'failed' | number;
  /** Inclusive bounds on timestamp. */
  from?: Date;
  to?: Date;
  limit?: number;
}

export class DeliveryLog {
  private entries: DeliveryLogEntry[] = [];
  private nextId = 1;

  constructor(
    private readonly retentionMs: number,
    private readonly now: () => Date,
    private readonly maxEntries = 10_000,
  ) {}

  add(entry: Omit<DeliveryLogEntry, 'id'>): void {
    this.entries.push({ id: this.nextId++, ...entry });
    if (this.entries.length > this.maxEntries) this.entries.splice(0, this.entries.length - this.maxEntries);
  }

  /** Removes entries older than the retention; returns how many went. */
  sweep(): number {
    const cutoff = this.now().getTime() - this.retentionMs;
    const before = this.entries.length;
    this.entries = this.entries.filter((e) => Date.parse(e.timestamp) >= cutoff);
    return before - this.entries.length;
  }

  get size(): number {
    return this.entries.length;
  }

  /** Newest first. */
  query(q: DeliveryLogQuery = {}): DeliveryLogEntry[] {
    const out: DeliveryLogEntry[] = [];
    const limit = q.limit ?? 500;
    for (let i = this.entries.length - 1; i >= 0 && out.length < limit; i--) {
      const e = this.entries[i]!;
      if (q.status === 'success' && !e.ok) continue;
      if (q.status === 'failed' && e.ok) continue;
      if (typeof q.status === 'number' && e.status !== q.status) continue;
      const t = Date.parse(e.timestamp);
      if (q.from && t < q.from.getTime()) continue;
      if (q.to && t > q.to.getTime()) continue;
      out.push(e);
    }
    return out;
  }
}
