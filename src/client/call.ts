/**
 * The one generic request path of DroidClient: send, read the body once, map failures, check
 * the contract. Built for the load hot path (thousands of req/s): constant header objects,
 * one `body.text()` then `JSON.parse`, the body always consumed (or destroyed on error).
 */
import { errors, interceptors, type Dispatcher, type RetryHandler } from 'undici';
import { checkContract, type TieredContract } from '../contract/index.js';
import { apiError, notJsonError, transportFailure } from './failure.js';
import { retryOptionsFor, type RequestRetry, type RetryKind } from './retry.js';
import type { ClientResponse, HttpMethod, TraceHeaders } from './types.js';

/** What every call shares; built once per DroidClient. */
export interface CallContext {
  dispatcher: Dispatcher;
  /** `dispatcher` behind undici's retry interceptor: used only by a call that asks to retry (retry.ts). */
  retrying: Dispatcher;
  /** `http://host:port` */
  origin: string;
  /** `/optional-base-path/api/droids/<droidId>/endpoint` */
  prefix: string;
  token: string;
  /** Authorization only (GET). */
  getHeaders: Record<string, string>;
  /** Authorization + JSON content type (POST). */
  postHeaders: Record<string, string>;
}

export function createCallContext(
  baseUrl: string,
  droidId: number | string,
  token: string,
  dispatcher: Dispatcher,
): CallContext {
  const url = new URL(baseUrl);
  const basePath = url.pathname.replace(/\/+$/, '');
  const authorization = `Bearer ${token}`;
  return {
    dispatcher,
    retrying: dispatcher.compose(interceptors.retry()),
    origin: url.origin,
    prefix: `${basePath}/api/droids/${encodeURIComponent(String(droidId))}/endpoint`,
    token,
    getHeaders: { authorization, accept: 'application/json' },
    postHeaders: { authorization, accept: 'application/json', 'content-type': 'application/json' },
  };
}

/**
 * One 'abort' listener per AbortSignal instead of one per request. undici adds a listener to the
 * signal of every request and removes it at the end (an EventTarget add and remove per request,
 * on the run-wide signal shared by thousands in flight). It also takes an EventEmitter-shaped
 * signal (`aborted`, `reason`, `on`/`once`/`removeListener`): this hub is one, backed by a Set,
 * and forwards the real signal's abort to every request in flight.
 */
class AbortHub {
  aborted = false;
  reason: unknown = undefined;
  readonly #listeners = new Set<() => void>();

  constructor(signal: AbortSignal) {
    signal.addEventListener(
      'abort',
      () => {
        this.aborted = true;
        this.reason = signal.reason as unknown;
        const listeners = [...this.#listeners];
        this.#listeners.clear();
        for (const listener of listeners) listener();
      },
      { once: true },
    );
  }

  on(_event: 'abort', listener: () => void): this {
    this.#listeners.add(listener);
    return this;
  }

  once(event: 'abort', listener: () => void): this {
    return this.on(event, listener);
  }

  removeListener(_event: 'abort', listener: () => void): this {
    this.#listeners.delete(listener);
    return this;
  }
}

const hubs = new WeakMap<AbortSignal, AbortHub>();

/** The shared hub of `signal` (the signal itself once aborted: undici then refuses at once). */
function abortHub(signal: AbortSignal): Dispatcher.RequestOptions['signal'] {
  if (signal.aborted) return signal;
  let hub = hubs.get(signal);
  if (!hub) {
    hub = new AbortHub(signal);
    hubs.set(signal, hub);
  }
  return hub as unknown as Dispatcher.RequestOptions['signal'];
}

/**
 * JSON of request bodies frozen by their caller (Object.freeze), made once: a load sends a
 * plain scenario's body thousands of times a second, and JSON.stringify of a chat history costs
 * a few microseconds each time. A frozen body, and what it holds, must not change afterwards.
 */
const frozenJson = new WeakMap<object, string>();

function jsonOf(body: unknown): string {
  if (typeof body !== 'object' || body === null || !Object.isFrozen(body)) return JSON.stringify(body);
  let json = frozenJson.get(body);
  if (json === undefined) frozenJson.set(body, (json = JSON.stringify(body)));
  return json;
}

/** A call's retry (CallOptions.retry) with the kind of request its method sends. */
export type CallRetry = RequestRetry & { kind: RetryKind };

/** undici retryOptions of one call: undici's errors classified as call() would throw them. */
function retryOptionsOf(
  ctx: CallContext,
  endpoint: string,
  timeoutMs: number,
  signal: AbortSignal | undefined,
  retry: CallRetry,
  seen: { delivered: boolean },
): RetryHandler.RetryOptions {
  return retryOptionsFor(retry, {
    kind: retry.kind,
    signal,
    classify: (err) =>
      err instanceof errors.RequestRetryError
        ? apiError(endpoint, err.statusCode, '', err.headers, ctx.token)
        : transportFailure(endpoint, err, signal, timeoutMs, ctx.token),
    delivered: () => seen.delivered,
  });
}

/** `headers` with the W3C Trace Context headers of one call (`tracestate` only when non-empty). */
function withTrace(headers: Record<string, string>, trace: TraceHeaders): Record<string, string> {
  const h: Record<string, string> = { ...headers, traceparent: trace.traceparent };
  if (trace.tracestate) h.tracestate = trace.tracestate;
  return h;
}

/**
 * Calls `<prefix><path>` and returns the parsed 2xx body with its contract check (documented
 * tier: violations; droidcheck's choice: `unverified`, never a finding).
 * @param endpoint spec name, used in error messages (e.g. `get-droid-answer-async`)
 * @param timeoutMs undici headersTimeout and bodyTimeout (each, ms; not a total deadline). undici runs
 *   them on its fast timers, so they fire up to ~1 s late: fine for 190 s, coarse for 50 ms.
 * @param retry when set, the call goes through `ctx.retrying` (retry.ts: 429/5xx, and a transport
 *   error unless an async submit); its waits count in the caller's latency. The error is the last attempt's.
 * @param trace the W3C Trace Context headers added to this call (a copy of the constant headers
 *   is made only then); absent: none.
 * @throws ApiError (non-2xx), TransportError, TimeoutError, AbortedError, ContractError (2xx not JSON)
 */
export async function call<T>(
  ctx: CallContext,
  endpoint: string,
  method: HttpMethod,
  path: string,
  body: unknown,
  contract: TieredContract,
  timeoutMs: number,
  signal: AbortSignal | undefined,
  retry?: CallRetry,
  trace?: TraceHeaders,
): Promise<ClientResponse<T>> {
  const base = method === 'GET' ? ctx.getHeaders : ctx.postHeaders;
  const options: Dispatcher.RequestOptions & { retryOptions?: RetryHandler.RetryOptions } = {
    origin: ctx.origin,
    path: ctx.prefix + path,
    method,
    headers: trace ? withTrace(base, trace) : base,
    body: body === undefined ? null : jsonOf(body),
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    signal: signal ? abortHub(signal) : null,
  };
  let seen: { delivered: boolean } | undefined;
  if (retry) {
    seen = { delivered: false };
    options.retryOptions = retryOptionsOf(ctx, endpoint, timeoutMs, signal, retry, seen);
  }
  let res: Dispatcher.ResponseData;
  try {
    res = await (seen ? ctx.retrying : ctx.dispatcher).request(options);
    if (seen) seen.delivered = true;
  } catch (err) {
    throw transportFailure(endpoint, err, signal, timeoutMs, ctx.token);
  }
  let text: string;
  try {
    text = await res.body.text();
  } catch (err) {
    if (!res.body.destroyed) res.body.destroy();
    throw transportFailure(endpoint, err, signal, timeoutMs, ctx.token);
  }
  const { statusCode, headers } = res;
  if (statusCode < 200 || statusCode > 299) throw apiError(endpoint, statusCode, text, headers, ctx.token);
  let parsed: unknown;
  try {
    if (text.length === 0) throw new Error('empty');
    parsed = JSON.parse(text);
  } catch (err) {
    throw notJsonError(endpoint, text, headers['content-type'], err instanceof Error ? err.message : '', ctx.token);
  }
  return {
    status: statusCode,
    body: parsed as T,
    contract: checkContract<T>(contract, parsed),
    headers,
  };
}
