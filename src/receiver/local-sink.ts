/**
 * The local sink: what the receiver of a run does with a checked delivery (delivery.ts). Answer
 * webhooks are correlated by requestId (correlator.ts: matched, parked until their waitFor,
 * duplicate, late, orphan); forwarded messages and intent webhooks are kept for their waiters
 * (inbound.ts). Refused deliveries (bad secret) are only counted, by the route. No I/O: take()
 * answers at once. Housekeeping (deadlines, orphans) runs on one timer.
 */
import type { Clock } from '../clock.js';
import { answerMatch } from './answer-match.js';
import { Correlator } from './correlator.js';
import type { AnswerCounts, Delivery, DeliverySink, KeptCounts, Reply } from './delivery.js';
import { InboundDeliveries } from './inbound.js';
import type { CorrelationOptions, InboxBounds } from './types.js';

export class LocalSink implements DeliverySink {
  readonly correlator: Correlator;
  readonly inbound: InboundDeliveries;
  readonly #housekeeping: NodeJS.Timeout;

  constructor(clock: Clock, options: CorrelationOptions & InboxBounds) {
    const orphanGraceMs = options.orphanGraceMs ?? 30_000;
    this.correlator = new Correlator({
      clock,
      orphanGraceMs,
      maxParked: options.maxParked ?? 100_000,
      rememberMs: options.rememberMs ?? 600_000,
      maxRemembered: options.maxRemembered ?? 500_000,
    });
    this.inbound = new InboundDeliveries(clock, options);
    this.#housekeeping = setInterval(
      () => this.housekeep(),
      Math.min(1000, Math.max(10, Math.floor(orphanGraceMs / 4))),
    );
    this.#housekeeping.unref();
  }

  take(d: Delivery): Reply {
    const body = d.body;
    if (d.verdict !== 'ok' || body === undefined) return undefined;
    if (d.route === 'answer')
      this.correlator.deliver(d.requestId as string, answerMatch(body, d.receivedAt), d.receivedAt);
    else if (d.route === 'message') this.inbound.addMessage(body, d.receivedAt);
    else this.inbound.addIntent(body, d.receivedAt);
    return undefined;
  }

  answerCounts(): AnswerCounts {
    const c = this.correlator.counts;
    return { matched: c.matched, duplicates: c.duplicates, late: c.late, orphans: c.orphans, published: 0 };
  }

  keptCounts(): { messages: KeptCounts; intents: KeptCounts } {
    return this.inbound.keptCounts();
  }

  ready(): Promise<void> {
    return Promise.resolve();
  }

  healthy(): Promise<boolean> {
    return Promise.resolve(true);
  }

  release(): void {}

  /** Resolves waiters whose deadline passed; turns parked deliveries past the grace period into orphans. */
  housekeep(now?: number): void {
    this.correlator.housekeep(now);
    this.inbound.fire(now);
  }

  close(): Promise<void> {
    clearInterval(this.#housekeeping);
    this.correlator.close();
    this.inbound.close();
    return Promise.resolve();
  }
}
