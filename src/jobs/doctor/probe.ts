/**
 * Raw HTTP probes of a target for `droidcheck doctor` and the run's preflight: the status,
 * headers (`Date`, `Content-Type`) and body text of any answer, 2xx or not, HTML or JSON, which
 * DroidClient (built for the measured path) does not keep. The token is sent as the spec says
 * (`Authorization: Bearer`, spec: Authentication) and never appears in a result: excerpts are
 * redacted by the caller's redactor.
 */
import type { Dispatcher } from 'undici';
import { systemClock, type Clock } from '../../clock.js';
import { newTraceparent } from '../../runner/index.js';
import { createCallContext } from '../../client/call.js';
import { transportFailure } from '../../client/failure.js';

export interface ProbeTarget {
  baseUrl: string;
  droidId: string | number;
  /** undefined: no Authorization header (the token is not configured). */
  token: string | undefined;
  dispatcher: Dispatcher;
  /** Each probe's headers and body timeout, ms. */
  timeoutMs: number;
  /** Times each probe (its start on the wall clock, its duration). Default systemClock. */
  clock?: Clock | undefined;
  /**
   * False (`--no-trace-context`): no `traceparent`. By default each probe carries one of its own
   * (a trace of one call: runner/trace.ts), as every call to the service does.
   */
  traceContext?: boolean | undefined;
}

/** An HTTP answer of any status. */
export interface ProbeAnswer {
  kind: 'answer';
  /** e.g. `GET channels`. */
  what: string;
  status: number;
  /** Content-Type, lower case, without parameters ('' when absent). */
  contentType: string;
  /** The `Date` header, when sent. */
  date: string | undefined;
  /** The body parsed as JSON; undefined when it is not JSON. */
  json: unknown;
  /** The first 300 characters of the body (not redacted here). */
  excerpt: string;
  /** `{error, message}` fields of a JSON error body (spec: Errors). */
  error: string | undefined;
  message: string | undefined;
  /** Wall clock (ms since the epoch) at the request's start, and the time to the whole answer (ms). */
  startedWallMs: number;
  elapsedMs: number;
}

/** No HTTP answer (refused, reset, timed out). */
interface ProbeFailure {
  kind: 'no-answer';
  what: string;
  /** e.g. ECONNREFUSED, UND_ERR_HEADERS_TIMEOUT. */
  code: string | undefined;
  message: string;
}

export type ProbeResult = ProbeAnswer | ProbeFailure;

const EXCERPT = 300;

function header(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/**
 * `method <prefix><path>` with `body` (JSON), where the prefix is `/api/droids/<droidId>/endpoint`
 * (spec: Endpoints). Never throws for the target's behaviour: no answer is a ProbeFailure.
 */
export async function probe(
  t: ProbeTarget,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<ProbeResult> {
  const ctx = createCallContext(t.baseUrl, t.droidId, t.token ?? '', t.dispatcher);
  const what = `${method} ${path.replace(/^\//, '')}`;
  const headers: Record<string, string> = {
    accept: 'application/json',
    ...(t.token !== undefined && { authorization: `Bearer ${t.token}` }),
    ...(body !== undefined && { 'content-type': 'application/json' }),
    ...(t.traceContext !== false && { traceparent: newTraceparent() }),
  };
  const clock = t.clock ?? systemClock;
  const startedWallMs = clock.wallNow().getTime();
  const t0 = clock.now();
  try {
    const res = await t.dispatcher.request({
      origin: ctx.origin,
      path: ctx.prefix + path,
      method,
      headers,
      body: body === undefined ? null : JSON.stringify(body),
      headersTimeout: t.timeoutMs,
      bodyTimeout: t.timeoutMs,
    });
    const text = await res.body.text();
    const elapsedMs = clock.now() - t0;
    let json: unknown;
    try {
      json = text.length > 0 ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    const err = json !== null && typeof json === 'object' ? (json as { error?: unknown; message?: unknown }) : {};
    return {
      kind: 'answer',
      what,
      status: res.statusCode,
      contentType: (header(res.headers, 'content-type') ?? '').split(';')[0]!.trim().toLowerCase(),
      date: header(res.headers, 'date'),
      json,
      excerpt: text.slice(0, EXCERPT),
      error: typeof err.error === 'string' ? err.error : undefined,
      message: typeof err.message === 'string' ? err.message : undefined,
      startedWallMs,
      elapsedMs,
    };
  } catch (err) {
    const failure = transportFailure(what, err, undefined, t.timeoutMs, t.token ?? '');
    return {
      kind: 'no-answer',
      what,
      code: (failure as { causeCode?: string }).causeCode ?? (failure as { code?: string }).code,
      message: failure.message,
    };
  }
}

/**
 * The body of the async probe: a humanMessage without `content`. The spec's 400 `Invalid
 * humanMessage format` ("humanMessage lacks a string content", spec: Errors) refuses it, so
 * nothing is queued and no AI answer is paid for; authentication (401), the droid (403) and,
 * on a service that checks its settings before the body, the answer webhook and the test
 * customer (the other two 400s) are answered first.
 */
export const INVALID_ASYNC_BODY = Object.freeze({ humanMessage: Object.freeze({ type: 'human' }) });

/** The message of the one real request `--round-trip` sends: short, no history, no intent with side effects. */
export const ROUND_TRIP_MESSAGE = 'Hello';
