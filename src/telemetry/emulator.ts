/**
 * The embedded emulator's spans (docs/telemetry.md, "The emulator's spans"), as a traced service
 * would export them, under the caller's `traceparent` (W3C Trace Context, read with
 * OpenTelemetry's own propagator):
 *
 * - `POST /get-droid-answer-async` (SERVER, HTTP semantic conventions), the request to its
 *   acknowledgement (or `POST /get-droid-answer` to the sync answer);
 * - `answer job` (INTERNAL) under it, from acceptance to the answer made (`droidcheck.request_id`);
 * - `webhook delivery` (PRODUCER) under the job, from the dispatch to the last attempt, each
 *   attempt a `webhook.attempt` event (attempt, status, error, the wait before the retry) and each
 *   extra copy of a duplicated webhook a `webhook.duplicate` event.
 *
 * The emulator has a provider of its own (service.name `droidcheck-emulator` unless
 * OTEL_SERVICE_NAME says otherwise), sampled as a service samples: by the caller's sampled flag
 * (parentbased_always_on unless OTEL_TRACES_SAMPLER says otherwise). `createEmulatorTracer` is what
 * the emulator's worker thread imports (emulator/worker-host.ts WorkerTracing).
 */
import {
  defaultTextMapGetter,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Context,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import type { AnswerTrace, DeliveryTrace, EmulatorTracer, IncomingTrace } from '../emulator/index.js';
import { openSdk } from './sdk.js';
import type { TelemetrySettings } from './settings.js';
import { TOOL_VERSION } from './version.js';

const propagator = new W3CTraceContextPropagator();

function traceparentOf(span: Span): string {
  const c = span.spanContext();
  return `00-${c.traceId}-${c.spanId}-0${c.traceFlags & 1}`;
}

class EmulatorAnswer implements AnswerTrace {
  readonly #tracer: Tracer;
  readonly #server: Span;
  readonly #job: Span;
  readonly #jobCtx: Context;

  constructor(tracer: Tracer, endpoint: string, incoming: IncomingTrace) {
    this.#tracer = tracer;
    const carrier: Record<string, string> = {};
    if (incoming.traceparent) carrier.traceparent = incoming.traceparent;
    if (incoming.tracestate) carrier.tracestate = incoming.tracestate;
    const parent = propagator.extract(ROOT_CONTEXT, carrier, defaultTextMapGetter);
    const path = `/${endpoint}`;
    this.#server = tracer.startSpan(
      `POST ${path}`,
      {
        kind: SpanKind.SERVER,
        attributes: { 'http.request.method': 'POST', 'http.route': path, 'url.path': path },
      },
      parent,
    );
    const serverCtx = trace.setSpan(parent, this.#server);
    this.#job = tracer.startSpan('answer job', { kind: SpanKind.INTERNAL }, serverCtx);
    this.#jobCtx = trace.setSpan(serverCtx, this.#job);
  }

  responded(status: number, requestId?: string): void {
    this.#server.setAttribute('http.response.status_code', status);
    if (requestId !== undefined) this.#server.setAttribute('droidcheck.request_id', requestId);
    if (status >= 400) {
      this.#server.setStatus({ code: SpanStatusCode.ERROR });
      this.#job.end();
    }
    this.#server.end();
  }

  answered(requestId: string, failed: boolean): void {
    this.#job.setAttribute('droidcheck.request_id', requestId);
    if (failed) this.#job.setStatus({ code: SpanStatusCode.ERROR, message: 'the error payload (a fault)' });
    this.#job.end();
  }

  delivery(copies: number): DeliveryTrace {
    const span = this.#tracer.startSpan('webhook delivery', { kind: SpanKind.PRODUCER }, this.#jobCtx);
    for (let c = 2; c <= copies; c++) span.addEvent('webhook.duplicate', { 'droidcheck.copy': c });
    let open = copies;
    let anyOk = false;
    return {
      headers: { traceparent: traceparentOf(span) },
      attempt(attempt, status, error, retryInMs) {
        span.addEvent('webhook.attempt', {
          'droidcheck.attempt': attempt,
          ...(status !== null && { 'http.response.status_code': status }),
          ...(error !== '' && { 'error.type': error }),
          ...(retryInMs !== undefined && { 'droidcheck.retry_in_ms': retryInMs }),
        });
      },
      end(ok) {
        anyOk ||= ok;
        if (--open > 0) return;
        if (!anyOk) span.setStatus({ code: SpanStatusCode.ERROR, message: 'every attempt failed' });
        span.end();
      },
    };
  }

  dropped(reason: string): void {
    this.#job.addEvent('webhook.dropped', { 'droidcheck.reason': reason });
  }
}

/** The emulator's tracer for `settings` (see module docs); undefined when traces are not exported. */
export async function createEmulatorTracer(settings: TelemetrySettings): Promise<EmulatorTracer | undefined> {
  const sdk = await openSdk(settings, {
    resource: { 'service.name': 'droidcheck-emulator' },
    warn: () => {},
    version: TOOL_VERSION,
  });
  const tracer = sdk.tracer;
  if (!tracer) {
    await sdk.shutdown();
    return undefined;
  }
  return {
    answer: (endpoint, incoming) => new EmulatorAnswer(tracer, endpoint, incoming),
    close: () => sdk.shutdown(),
  };
}
