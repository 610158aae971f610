/**
 * DroidClient: one typed method per endpoint of the Message Endpoint API (spec: Endpoints 1-10),
 * over an injected undici Dispatcher, `Authorization: Bearer <token>` (spec: Authentication).
 *
 * Every method resolves a ClientResponse<T> for a 2xx JSON answer (schema violations are in
 * `contract`, not thrown) and otherwise rejects with:
 * - DROIDCHECK_ERR_API (ApiError): non-2xx; status, error/apiMessage from `{error, message}`, retryAfterS;
 * - DROIDCHECK_ERR_TRANSPORT (TransportError): no HTTP answer; causeCode e.g. ECONNREFUSED, UND_ERR_SOCKET;
 * - DROIDCHECK_ERR_TIMEOUT (TimeoutError): no headers, or a body stall, within the timeout;
 * - DROIDCHECK_ERR_CONTRACT (ContractError): 2xx whose body is empty or not JSON;
 * - DROIDCHECK_ERR_ABORTED (AbortedError): the caller's AbortSignal fired.
 * The token never appears in an error message or excerpt.
 *
 * Contracts: each response is checked against `CONTRACTS[endpoint]` (src/contract/contracts.ts):
 * `contract.violations` are differences from what the spec or the service's docs show;
 * `contract.unverified` differences from droidcheck's own choice where they show nothing.
 */
import type { z } from 'zod';
import {
  CONTRACTS,
  type askResponseSchema,
  type AsyncAck,
  type AsyncAnswerRequest,
  type channelsResponseSchema,
  type conversationsResponseSchema,
  type customerSchema,
  type customerUpdateResponseSchema,
  type imageAltResponseSchema,
  type messagesResponseSchema,
  type SendRequest,
  type sendResponseSchema,
  type SyncAnswerRequest,
  type SyncAnswerResponse,
} from '../contract/index.js';
import { call, createCallContext, type CallContext, type CallRetry } from './call.js';
import { isFormRefusal, renderSyncRequest, SyncMessageFormState, type SyncMessageForm } from './sync-message-form.js';
import type { RetryKind } from './retry.js';
import type { AnswerCallOptions, CallOptions, ClientResponse, DroidClientOptions } from './types.js';

/** spec 8: the answer may take 180 s; leave 10 s of margin. */
const DEFAULT_SYNC_TIMEOUT_MS = 190_000;
const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

export type CustomerId = number | string;

/**
 * The response of an endpoint beyond the two answer endpoints (spec 1-7, 10): the shape of
 * droidcheck's choice where the spec says "not shown" (contract/service.ts). Each body is
 * checked against `CONTRACTS[endpoint]` (both tiers).
 */
type Reply<S extends z.ZodType> = Promise<ClientResponse<z.infer<S>>>;

function customerPath(customerId: CustomerId): string {
  return `/customer/${encodeURIComponent(String(customerId))}`;
}

/** `opts.retry` for a request of `kind` (retry.ts: an async submit's transport error is never retried). */
function retryOf(opts: AnswerCallOptions, kind: RetryKind): CallRetry | undefined {
  return opts.retry && { ...opts.retry, kind };
}

export class DroidClient {
  readonly #ctx: CallContext;
  readonly #syncTimeoutMs: number;
  readonly #requestTimeoutMs: number;
  readonly #syncForm: SyncMessageFormState;

  constructor(options: DroidClientOptions) {
    this.#ctx = createCallContext(options.baseUrl, options.droidId, options.token, options.dispatcher);
    this.#syncTimeoutMs = options.syncTimeoutMs ?? DEFAULT_SYNC_TIMEOUT_MS;
    this.#requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    this.#syncForm = new SyncMessageFormState(options.syncMessageForm ?? 'auto', options.onSyncMessageForm);
  }

  /** The form of `humanMessage` the next get-droid-answer request uses (see `syncMessageForm`). */
  get syncMessageForm(): SyncMessageForm {
    return this.#syncForm.form;
  }

  /**
   * spec 8, POST get-droid-answer: holds the connection until the answer (default timeout 190 s).
   * `humanMessage` may be a string or `{content, type?}`; it goes on the wire in the form the
   * option `syncMessageForm` picks (default `auto`: object first; on 400 `Invalid humanMessage
   * format` this one request is retried once in the other form, and an accepted form is kept).
   * The retry is part of this call: its time counts in the caller's latency, as do `opts.retry`'s.
   */
  async getDroidAnswer(
    req: SyncAnswerRequest,
    opts: AnswerCallOptions = {},
  ): Promise<ClientResponse<SyncAnswerResponse>> {
    const timeout = opts.timeoutMs ?? this.#syncTimeoutMs;
    const state = this.#syncForm;
    const form = state.form;
    const retry = retryOf(opts, 'sync');
    const send = (f: SyncMessageForm) =>
      call<SyncAnswerResponse>(
        this.#ctx,
        'get-droid-answer',
        'POST',
        '/get-droid-answer',
        renderSyncRequest(req, f),
        CONTRACTS['get-droid-answer'],
        timeout,
        opts.signal,
        retry,
        opts.trace,
      );
    if (!state.auto) return send(form);
    try {
      return await send(form);
    } catch (err) {
      if (!isFormRefusal(err) || opts.signal?.aborted) throw err;
      const other: SyncMessageForm = form === 'object' ? 'string' : 'object';
      let res: ClientResponse<SyncAnswerResponse>;
      try {
        res = await send(other);
      } catch (retryErr) {
        // Both forms refused: the message itself is the problem; report the first answer.
        throw isFormRefusal(retryErr) ? err : retryErr;
      }
      state.accepted(other, form);
      return res;
    }
  }

  /** spec 9, POST get-droid-answer-async: acknowledgement `{success, requestId, message}` (< 100 ms). */
  getDroidAnswerAsync(req: AsyncAnswerRequest, opts: AnswerCallOptions = {}): Promise<ClientResponse<AsyncAck>> {
    const timeout = opts.timeoutMs ?? this.#requestTimeoutMs;
    return call(
      this.#ctx,
      'get-droid-answer-async',
      'POST',
      '/get-droid-answer-async',
      req,
      CONTRACTS['get-droid-answer-async'],
      timeout,
      opts.signal,
      retryOf(opts, 'async-submit'),
      opts.trace,
    );
  }

  /** spec 1, GET channels. */
  channels(opts: CallOptions = {}): Reply<typeof channelsResponseSchema> {
    return call(
      this.#ctx,
      'channels',
      'GET',
      '/channels',
      undefined,
      CONTRACTS.channels,
      this.#timeout(opts),
      opts.signal,
      undefined,
      opts.trace,
    );
  }

  /** spec 2, GET messages/:customerId. */
  messages(customerId: CustomerId, opts: CallOptions = {}): Reply<typeof messagesResponseSchema> {
    const path = `/messages/${encodeURIComponent(String(customerId))}`;
    return call(
      this.#ctx,
      'messages',
      'GET',
      path,
      undefined,
      CONTRACTS.messages,
      this.#timeout(opts),
      opts.signal,
      undefined,
      opts.trace,
    );
  }

  /** spec 3, GET customer/:customerId. */
  customer(customerId: CustomerId, opts: CallOptions = {}): Reply<typeof customerSchema> {
    const path = customerPath(customerId);
    return call(
      this.#ctx,
      'customer',
      'GET',
      path,
      undefined,
      CONTRACTS.customer,
      this.#timeout(opts),
      opts.signal,
      undefined,
      opts.trace,
    );
  }

  /** spec 4, GET customer/:customerId/conversations. */
  conversations(customerId: CustomerId, opts: CallOptions = {}): Reply<typeof conversationsResponseSchema> {
    const path = `${customerPath(customerId)}/conversations`;
    return call(
      this.#ctx,
      'conversations',
      'GET',
      path,
      undefined,
      CONTRACTS.conversations,
      this.#timeout(opts),
      opts.signal,
      undefined,
      opts.trace,
    );
  }

  /** spec 5, POST customer/:customerId/ask `{prompt}` (at most 500 characters; the service enforces it). */
  ask(customerId: CustomerId, prompt: string, opts: CallOptions = {}): Reply<typeof askResponseSchema> {
    const path = `${customerPath(customerId)}/ask`;
    return call(
      this.#ctx,
      'ask',
      'POST',
      path,
      { prompt },
      CONTRACTS.ask,
      this.#timeout(opts),
      opts.signal,
      undefined,
      opts.trace,
    );
  }

  /**
   * spec 6, POST send `{customerId, humanMessage}` (humanMessage: text or a public image URL; the
   * request and response shapes are droidcheck's choice). The bot's reply is not in the response:
   * it arrives later through the message-forwarding webhook (docs receiving-webhook.mdx).
   */
  send(req: SendRequest, opts: CallOptions = {}): Reply<typeof sendResponseSchema> {
    return call(
      this.#ctx,
      'send',
      'POST',
      '/send',
      req,
      CONTRACTS.send,
      this.#timeout(opts),
      opts.signal,
      undefined,
      opts.trace,
    );
  }

  /** spec 7, POST customer/:customerId `{botEnabled}`. */
  setBot(
    customerId: CustomerId,
    botEnabled: boolean,
    opts: CallOptions = {},
  ): Reply<typeof customerUpdateResponseSchema> {
    const path = customerPath(customerId);
    return call(
      this.#ctx,
      'customer-update',
      'POST',
      path,
      { botEnabled },
      CONTRACTS['customer-update'],
      this.#timeout(opts),
      opts.signal,
      undefined,
      opts.trace,
    );
  }

  /** spec 10, POST get-image-alt `{imageUrl}`. */
  imageAlt(imageUrl: string, opts: CallOptions = {}): Reply<typeof imageAltResponseSchema> {
    return call(
      this.#ctx,
      'get-image-alt',
      'POST',
      '/get-image-alt',
      { imageUrl },
      CONTRACTS['get-image-alt'],
      this.#timeout(opts),
      opts.signal,
      undefined,
      opts.trace,
    );
  }

  #timeout(opts: CallOptions): number {
    return opts.timeoutMs ?? this.#requestTimeoutMs;
  }
}
