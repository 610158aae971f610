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
 *   `webhook.arrival` event at the time the receiver accepted it (the emulator's own delivery
 *   span, under its AI job, holds each attempt, retry and duplicate copy: emulator.ts);
 * - model calls (CLIENT, GenAI semantic conventions: `{gen_ai.operation.name} {model}`,
 *   `gen_ai.operation.name` chat or embeddings, `gen_ai.request.model`,
 *   `gen_ai.usage.input_tokens`, `gen_ai.usage.output_tokens`, `gen_ai.provider.name`), under
 *   the turn they grade or the conversation they play.
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
import type { CallTrace, ConversationTrace, RequestRecord, RequestTracer } from '../runner/index.js';

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
}

class SpanConversation implements ConversationTrace {
  readonly traceId: string;
  readonly #t: TracerState;
  readonly #root: Span;
  readonly #rootCtx: Context;
  #turn: { span: Span; ctx: Context; delivery?: Span | undefined } | undefined;
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

  /** Model calls hang under the open turn (its grades), else under the conversation (a simulated customer's lines). */
  get modelScope(): Context {
    return this.#turn?.ctx ?? this.#rootCtx;
  }

  beginTurn(mode: string, startMs: number): void {
    const span = this.#t.tracer.startSpan(
      'answer turn',
      {
        kind: SpanKind.INTERNAL,
        startTime: this.#t.epoch(startMs),
        attributes: { 'droidcheck.mode': mode, 'droidcheck.turn': this.#turns++ },
      },
      this.#rootCtx,
    );
    this.#turn = { span, ctx: trace.setSpan(this.#rootCtx, span) };
  }

  call(endpoint: string, method: 'GET' | 'POST', path: string): CallTrace {
    const { base, tracer, now, epoch } = this.#t;
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
      this.#turn?.ctx ?? this.#rootCtx,
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

  acknowledged(requestId: string): void {
    const turn = this.#turn;
    if (!turn) return;
    turn.span.setAttribute('droidcheck.request_id', requestId);
    turn.delivery = this.#t.tracer.startSpan(
      'webhook delivery',
      {
        kind: SpanKind.CONSUMER,
        startTime: this.#t.epoch(this.#t.now()),
        attributes: { 'droidcheck.request_id': requestId },
      },
      turn.ctx,
    );
  }

  delivered(receivedAtMs: number, kind: 'answered' | 'failed'): void {
    const d = this.#turn?.delivery;
    if (!d) return;
    const at = this.#t.epoch(receivedAtMs);
    d.addEvent('webhook.arrival', { 'droidcheck.answer': kind }, at);
    if (kind === 'failed') d.setStatus({ code: SpanStatusCode.ERROR, message: 'the webhook carried an error payload' });
    d.end(at);
    this.#turn!.delivery = undefined;
  }

  endTurn(turn: RequestRecord): void {
    const open = this.#turn;
    if (!open) return;
    const end = this.#t.epoch(this.#t.now());
    if (open.delivery) {
      open.delivery.setStatus({ code: SpanStatusCode.ERROR, message: turn.error?.message ?? 'no webhook' });
      open.delivery.end(end);
    }
    const s = open.span;
    if (turn.requestId !== undefined) s.setAttribute('droidcheck.request_id', turn.requestId);
    s.setAttribute('droidcheck.outcome', turn.outcome);
    if (turn.outcome !== 'answered')
      s.setStatus({ code: SpanStatusCode.ERROR, message: turn.error?.message ?? turn.outcome });
    s.end(end);
    this.#turn = undefined;
  }

  /** The conversation's record is final: its verdicts as events, its status, the root's end. */
  end(record: RequestRecord, verdict: string, warmup: boolean): void {
    if (this.#turn) this.endTurn(record);
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
  const state: TracerState = {
    tracer,
    epoch: epochOf(clock),
    now: () => clock.now(),
    runId,
    base: {
      url: `${u.origin}${u.pathname.replace(/\/+$/, '')}`,
      host: u.hostname,
      port: Number(u.port || (u.protocol === 'https:' ? 443 : 80)),
    },
  };
  return {
    conversation: (record, startMs) => new SpanConversation(state, record, startMs),
    end(record, verdict, warmup) {
      const c = traceOf(record);
      if (c instanceof SpanConversation) c.end(record, verdict, warmup);
    },
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
