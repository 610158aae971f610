/**
 * Tail sampling of conversations (docs/telemetry.md, Sampling): a head sampler decides when a
 * trace starts, before anyone knows whether the conversation will fail, so droidcheck records
 * every span and decides when the conversation's root span ends: a failed conversation (its
 * root's status ERROR) is kept whole, the others are kept or dropped by the sampler
 * OTEL_TRACES_SAMPLER asks for (its decision on the root, as a head sampler would have made it).
 *
 * Spans wait in memory until their root ends (a conversation's spans: a few per turn), then go
 * to the batch processor, or are dropped. A span that ends after its root (a late model call)
 * follows the decision remembered for its trace (the last DECIDED_KEPT traces); one whose root
 * never ended (an interrupted run) is kept at shutdown: nothing recorded is lost for a sampler.
 */
import { ROOT_CONTEXT, SpanStatusCode, type Context } from '@opentelemetry/api';
import {
  SamplingDecision,
  type ReadableSpan,
  type Sampler,
  type Span,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace';

/** Decisions remembered for spans that end after their root. */
const DECIDED_KEPT = 10_000;

export class TailSampler implements SpanProcessor {
  readonly #pending = new Map<string, ReadableSpan[]>();
  readonly #decided = new Map<string, boolean>();
  #kept = 0;
  #dropped = 0;

  constructor(
    private readonly next: SpanProcessor,
    private readonly sampler: Sampler,
  ) {}

  /** Conversations kept and dropped so far. */
  counts(): { kept: number; dropped: number } {
    return { kept: this.#kept, dropped: this.#dropped };
  }

  onStart(span: Span, parentContext: Context): void {
    this.next.onStart(span, parentContext);
  }

  onEnd(span: ReadableSpan): void {
    const traceId = span.spanContext().traceId;
    const decided = this.#decided.get(traceId);
    if (decided !== undefined) {
      if (decided) this.next.onEnd(span);
      return;
    }
    if (span.parentSpanContext !== undefined) {
      const list = this.#pending.get(traceId);
      if (list) list.push(span);
      else this.#pending.set(traceId, [span]);
      return;
    }
    const keep = span.status.code === SpanStatusCode.ERROR || this.#sampled(span);
    if (keep) this.#kept += 1;
    else this.#dropped += 1;
    this.#remember(traceId, keep);
    const spans = this.#pending.get(traceId) ?? [];
    this.#pending.delete(traceId);
    if (keep) {
      for (const s of spans) this.next.onEnd(s);
      this.next.onEnd(span);
    }
  }

  #sampled(root: ReadableSpan): boolean {
    const r = this.sampler.shouldSample(
      ROOT_CONTEXT,
      root.spanContext().traceId,
      root.name,
      root.kind,
      root.attributes,
      [],
    );
    return r.decision === SamplingDecision.RECORD_AND_SAMPLED;
  }

  #remember(traceId: string, keep: boolean): void {
    if (this.#decided.size >= DECIDED_KEPT) {
      const oldest = this.#decided.keys().next().value;
      if (oldest !== undefined) this.#decided.delete(oldest);
    }
    this.#decided.set(traceId, keep);
  }

  /** Hands every span still waiting for its root to the next processor (see module docs). */
  #release(): void {
    for (const spans of this.#pending.values()) for (const s of spans) this.next.onEnd(s);
    this.#pending.clear();
  }

  forceFlush(): Promise<void> {
    return this.next.forceFlush();
  }

  shutdown(): Promise<void> {
    this.#release();
    return this.next.shutdown();
  }
}
