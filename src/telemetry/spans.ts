/**
 * A job's traces (docs/telemetry.md, Traces): one trace per conversation (a planned request),
 * with OpenTelemetry's semantic conventions where they name a thing:
 *
 * - `conversation` (root, INTERNAL): `gen_ai.conversation.id`, the suite, scenario, mode and
 *   repeat, the outcome and verdict; status ERROR when the conversation failed (so the tail
 *   sampler keeps it whole: tail.ts); each verdict a `gen_ai.evaluation.result` event
 *   (`gen_ai.evaluation.name`, `gen_ai.evaluation.score.label` pass or fail,
 *   `gen_ai.evaluation.score.value`, `gen_ai.evaluation.explanation`);
 * - `answer turn` (INTERNAL), one per turn, from the submit (the open model's intended start) to
 *   the webhook's arrival or the sync response: `droidcheck.request_id` (the service's requestId);
 * - the HTTP call (CLIENT, HTTP semantic conventions: `{method} {url.template}`,
 *   `http.request.method`, `url.full`, `url.template`, `server.address`, `server.port`,
 *   `http.response.status_code`, `error.type`), whose id is the `traceparent` parent the service
 *   sees;
 * - `webhook delivery` (CONSUMER), from the acknowledgement to the webhook's arrival, with a
 *   `webhook.arrival` event at the time the receiver accepted it and a `webhook.duplicate` event
 *   (`droidcheck.copy`: 2 for the first extra copy) per duplicate delivery of its requestId the
 *   receiver counted (HeldDeliveries: the span is held open a while for them); the emulator's own
 *   delivery span, under its AI job, holds each attempt, retry and copy it sent (emulator.ts);
 * - model calls (CLIENT, GenAI semantic conventions: `{gen_ai.operation.name} {model}`,
 *   `gen_ai.operation.name` chat or embeddings, `gen_ai.request.model`,
 *   `gen_ai.usage.input_tokens`, `gen_ai.usage.output_tokens`, `gen_ai.provider.name`), under
 *   the turn whose answer they grade (a plain scenario's, a `say` step's, a burst message's:
 *   even when the grading comes after the turn ended) or the conversation they play.
 *
 * Times: the engine's clock (monotonic ms) mapped to the wall clock once, at the start.
 */
import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import type { Clock } from '../clock.js';
import type { ModelCallInfo, ModelCallObserver } from '../llm/index.js';
import type { CallTrace, ConversationTrace, RequestRecord, RequestTracer, TurnTrace } from '../runner/index.js';
import { HeldDeliveries } from './held-deliveries.js';

/** The engine's clock (ms) as epoch ms. */
type EpochOf = (clockMs: number) => number;

function epochOf(clock: Clock): EpochOf {
  const wall = clock.wallNow().getTime();
  const mono = clock.now();
  return (ms) => wall + (ms - mono);
}

/** `traceparent` of a span (W3C Trace Context): sampled, since every span is recorded until the tail decision. */
function traceparentOf(span: Span): string {
  const c = span.spanContext();
  return `00-${c.traceId}-${c.spanId}-01`;
}

/** One verdict as a `gen_ai.evaluation.result` event's attributes. */
function evaluation(name: string, label: string, explanation: string | undefined, score?: number): Attributes {
  return {
    'gen_ai.evaluation.name': name,
    'gen_ai.evaluation.score.label': label,
    ...(score !== undefined && { 'gen_ai.evaluation.score.value': score }),
    ...(explanation !== undefined && { 'gen_ai.evaluation.explanation': explanation }),
  };
}

/** Every verdict of a record (grades, failures, checks not judged) as evaluation events. */
function verdicts(record: RequestRecord): Attributes[] {
  const out: Attributes[] = [];
  for (const g of record.grades ?? [])
    out.push(evaluation(`${g.matcher} ${g.path}`, g.pass ? 'pass' : 'fail', g.reason, g.score));
  const graded = new Set((record.grades ?? []).filter((g) => !g.pass).map((g) => `${g.path}|${g.matcher}`));
  for (const f of record.failures)
    if (!graded.has(`${f.path}|${f.matcher}`)) out.push(evaluation(`${f.matcher} ${f.path}`, 'fail', f.message));
  for (const j of record.judgeErrors ?? [])
    out.push(
      evaluation(`${j.matcher} ${j.path}`, j.code === 'DROIDCHECK_ERR_BUDGET' ? 'not judged' : 'error', j.message),
    );
  return out;
}

interface TracerState {
  tracer: Tracer;
  epoch: EpochOf;
  now: () => number;
  runId: string;
  /** The service's origin and path prefix, for `url.full`; its host and port. */
  base: { url: string; host: string; port: number };
  deliveries: HeldDeliveries;
}

/** A call to the service (CLIENT, HTTP semantic conventions) under `parent`. */
function callSpan(t: TracerState, parent: Context, endpoint: string, method: 'GET' | 'POST', path: string): CallTrace {
  const { base, tracer, now, epoch } = t;
  const span = tracer.startSpan(
    `${method} ${path}`,
    {
      kind: SpanKind.CLIENT,
      startTime: epoch(now()),
      attributes: {
        'http.request.method': method,
        'url.full': `${base.url}${path}`,
        'url.template': path,
        'server.address': base.host,
        'server.port': base.port,
        'droidcheck.endpoint': endpoint,
      },
    },
    parent,
  );
  return {
    headers: { traceparent: traceparentOf(span) },
    end: (status, errorCode) => {
      if (status !== undefined) span.setAttribute('http.response.status_code', status);
      const failed = errorCode !== undefined || (status !== undefined && status >= 400);
      if (failed) {
        span.setAttribute(
          'error.type',
          status !== undefined && status >= 400 ? String(status) : (errorCode ?? 'error'),
        );
        span.setStatus({ code: SpanStatusCode.ERROR });
      }
      span.end(epoch(now()));
    },
  };
}

/** One answer turn (see module docs); `onEnd` tells its conversation it ended. */
class SpanTurn implements TurnTrace {
  readonly #t: TracerState;
  readonly #span: Span;
  readonly #ctx: Context;
  #delivery: { span: Span; requestId: string } | undefined;
  #ended = false;

  constructor(
    t: TracerState,
    parent: Context,
    mode: string,
    index: number,
    startMs: number,
    private readonly onEnd: (turn: SpanTurn) => void,
  ) {
    this.#t = t;
    this.#span = t.tracer.startSpan(
      'answer turn',
      {
        kind: SpanKind.INTERNAL,
        startTime: t.epoch(startMs),
        attributes: { 'droidcheck.mode': mode, 'droidcheck.turn': index },
      },
      parent,
    );
    this.#ctx = trace.setSpan(parent, this.#span);
  }

  /** The grades of this turn's answer hang under it, even once it ended (a say step's expectations). */
  get modelScope(): Context {
    return this.#ctx;
  }

  call(endpoint: string, method: 'GET' | 'POST', path: string): CallTrace {
    return callSpan(this.#t, this.#ctx, endpoint, method, path);
  }

  acknowledged(requestId: string): void {
    this.#span.setAttribute('droidcheck.request_id', requestId);
    const span = this.#t.tracer.startSpan(
      'webhook delivery',
      {
        kind: SpanKind.CONSUMER,
        startTime: this.#t.epoch(this.#t.now()),
        attributes: { 'droidcheck.request_id': requestId },
      },
      this.#ctx,
    );
    this.#delivery = { span, requestId };
  }

  delivered(receivedAtMs: number, kind: 'answered' | 'failed'): void {
    const d = this.#delivery;
    if (!d) return;
    const at = this.#t.epoch(receivedAtMs);
    d.span.addEvent('webhook.arrival', { 'droidcheck.answer': kind }, at);
    if (kind === 'failed')
      d.span.setStatus({ code: SpanStatusCode.ERROR, message: 'the webhook carried an error payload' });
    this.#t.deliveries.hold(d.requestId, d.span, at);
    this.#delivery = undefined;
  }

  end(turn: RequestRecord): void {
    if (this.#ended) return;
    this.#ended = true;
    const end = this.#t.epoch(this.#t.now());
    if (this.#delivery) {
      this.#delivery.span.setStatus({ code: SpanStatusCode.ERROR, message: turn.error?.message ?? 'no webhook' });
      this.#delivery.span.end(end);
      this.#delivery = undefined;
    }
    const s = this.#span;
    if (turn.requestId !== undefined) s.setAttribute('droidcheck.request_id', turn.requestId);
    s.setAttribute('droidcheck.outcome', turn.outcome);
    if (turn.outcome !== 'answered')
      s.setStatus({ code: SpanStatusCode.ERROR, message: turn.error?.message ?? turn.outcome });
    s.end(end);
    this.onEnd(this);
  }
}

class SpanConversation implements ConversationTrace {
  readonly traceId: string;
  readonly #t: TracerState;
  readonly #root: Span;
  readonly #rootCtx: Context;
  /** Turns begun and not ended (a burst's messages are in flight together). */
  readonly #open = new Set<SpanTurn>();
  readonly #closed = (turn: SpanTurn): void => void this.#open.delete(turn);
  #turns = 0;

  constructor(t: TracerState, record: RequestRecord, startMs: number) {
    this.#t = t;
    this.#root = t.tracer.startSpan(
      'conversation',
      {
        kind: SpanKind.INTERNAL,
        startTime: t.epoch(startMs),
        attributes: {
          'gen_ai.conversation.id': `${t.runId}-${record.seq}`,
          'droidcheck.suite': record.suite,
          'droidcheck.scenario': record.scenario,
          'droidcheck.mode': record.mode,
          'droidcheck.repeat': record.repeat ?? 0,
          'droidcheck.seq': record.seq,
        },
      },
      ROOT_CONTEXT,
    );
    this.#rootCtx = trace.setSpan(ROOT_CONTEXT, this.#root);
    this.traceId = this.#root.spanContext().traceId;
  }

  /** Model calls made for the whole conversation (a simulated customer's lines) hang under its root. */
  get modelScope(): Context {
    return this.#rootCtx;
  }

  beginTurn(mode: string, startMs: number): TurnTrace {
    const turn = new SpanTurn(this.#t, this.#rootCtx, mode, this.#turns++, startMs, this.#closed);
    this.#open.add(turn);
    return turn;
  }

  call(endpoint: string, method: 'GET' | 'POST', path: string): CallTrace {
    return callSpan(this.#t, this.#rootCtx, endpoint, method, path);
  }

  /** The conversation's record is final: its verdicts as events, its status, the root's end. */
  end(record: RequestRecord, verdict: string, warmup: boolean): void {
    for (const turn of [...this.#open]) turn.end(record);
    const r = this.#root;
    for (const attributes of verdicts(record)) r.addEvent('gen_ai.evaluation.result', attributes);
    r.setAttributes({
      'droidcheck.outcome': record.outcome,
      'droidcheck.verdict': verdict,
      ...(record.requestId !== undefined && { 'droidcheck.request_id': record.requestId }),
      ...(warmup && { 'droidcheck.warmup': true }),
    });
    if (verdict === 'failed' || verdict === 'judge-error')
      r.setStatus({
        code: SpanStatusCode.ERROR,
        message: record.error?.message ?? record.failures[0]?.message ?? record.judgeErrors?.[0]?.message ?? verdict,
      });
    r.end(this.#t.epoch(this.#t.now()));
  }
}

export interface SpanTracer extends RequestTracer {
  /** Ends the conversation of `record` (once its record is final). */
  end(record: RequestRecord, verdict: string, warmup: boolean): void;
  /** The receiver counted a duplicate delivery of `requestId` at `receivedAtMs` (clock ms): an event on its delivery span. */
  duplicate(requestId: string, receivedAtMs: number): void;
  /** The job's end: every delivery span still held for duplicates ends. */
  close(): void;
}

/** The tracer of a job whose traces are exported (see module docs). */
export function createSpanTracer(
  tracer: Tracer,
  clock: Clock,
  runId: string,
  baseUrl: string,
  traceOf: (record: RequestRecord) => ConversationTrace | undefined,
): SpanTracer {
  const u = new URL(baseUrl);
  const epoch = epochOf(clock);
  const now = (): number => clock.now();
  const state: TracerState = {
    tracer,
    epoch,
    now,
    runId,
    base: {
      url: `${u.origin}${u.pathname.replace(/\/+$/, '')}`,
      host: u.hostname,
      port: Number(u.port || (u.protocol === 'https:' ? 443 : 80)),
    },
    deliveries: new HeldDeliveries({ epoch, now }),
  };
  return {
    conversation: (record, startMs) => new SpanConversation(state, record, startMs),
    end(record, verdict, warmup) {
      const c = traceOf(record);
      if (c instanceof SpanConversation) c.end(record, verdict, warmup);
    },
    duplicate: (requestId, receivedAtMs) => state.deliveries.duplicate(requestId, receivedAtMs),
    close: () => state.deliveries.close(),
  };
}

/** GenAI spans of the model calls (see module docs), under the scope's context when it has one. */
export function modelCallSpans(tracer: Tracer, provider: string): ModelCallObserver {
  return {
    started(call: ModelCallInfo) {
      const parent = (call.scope?.parent as Context | undefined) ?? ROOT_CONTEXT;
      const span = tracer.startSpan(
        `${call.operation} ${call.model}`,
        {
          kind: SpanKind.CLIENT,
          attributes: {
            'gen_ai.operation.name': call.operation,
            'gen_ai.request.model': call.model,
            'gen_ai.provider.name': provider,
            'droidcheck.model.role': call.role,
            ...(call.scope?.scenario !== undefined && { 'droidcheck.scenario': call.scope.scenario }),
          },
        },
        parent,
      );
      return {
        ended(tokens, errorCode) {
          if (tokens) {
            span.setAttribute('gen_ai.usage.input_tokens', tokens.input);
            span.setAttribute('gen_ai.usage.output_tokens', tokens.output);
          }
          if (errorCode !== undefined) {
            span.setAttribute('error.type', errorCode);
            span.setStatus({ code: SpanStatusCode.ERROR });
          }
          span.end();
        },
      };
    },
  };
}
