/**
 * What the emulator tells a tracer (docs/telemetry.md, "The emulator's spans"): a traced
 * service reads the caller's W3C `traceparent` (and `tracestate`) and puts its own work under it,
 * so a trace view shows one tree from the customer's message to the delivered answer. The
 * emulator does what such a service would: for each answer request, the request itself, the AI
 * job that makes the answer and the webhook delivery with every attempt. It holds no tracing
 * code: `EmulatorOptions.tracer` is given by the caller (src/telemetry builds one when export is
 * on); without it nothing is traced and nothing is loaded.
 */

/** The W3C Trace Context headers of an incoming request, as received (absent: none). */
export interface IncomingTrace {
  traceparent?: string | undefined;
  tracestate?: string | undefined;
}

/** The delivery of one answer: every attempt of every copy, then its end. */
export interface DeliveryTrace {
  /** Headers the webhook POST carries (`traceparent` of the delivery). */
  readonly headers: Record<string, string>;
  /** Attempt `attempt` (1-based) ended: its HTTP status (null: no answer) and error; a retry follows when `retryInMs` is set. */
  attempt(attempt: number, status: number | null, error: string, retryInMs?: number): void;
  /** The delivery gave up or was taken (`ok`). */
  end(ok: boolean): void;
}

/** One answer request's trace. */
export interface AnswerTrace {
  /** The route answered (the acknowledgement, or the sync answer): its HTTP status. */
  responded(status: number, requestId?: string): void;
  /** The AI job made the answer (`failed`: the error payload instead). */
  answered(requestId: string, failed: boolean): void;
  /** A delivery of the answer begins; `copies` > 1 when the webhook is sent more than once (a duplicate). */
  delivery(copies: number): DeliveryTrace;
  /** The answer will not be delivered (dropped, or nothing to deliver). */
  dropped(reason: string): void;
}

/** The emulator's tracer (see module docs). */
export interface EmulatorTracer {
  /** An answer request to `endpoint` was accepted; `incoming`: its trace context. */
  answer(endpoint: 'get-droid-answer' | 'get-droid-answer-async', incoming: IncomingTrace): AnswerTrace;
  /** Exports what is left; called when the emulator closes. */
  close(): Promise<void>;
}

/** One header's value as Fastify gives it. */
export function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
