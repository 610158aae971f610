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
 */
import {
  asyncAckSchema,
  syncAnswerResponseSchema,
  type AsyncAck,
  type AsyncAnswerRequest,
  type SendRequest,
  type SyncAnswerRequest,
  type SyncAnswerResponse,
} from '../contract/index.js';
import { call, createCallContext, type CallContext } from './call.js';
import {
  askResponseSchema,
  channelsResponseSchema,
  conversationsResponseSchema,
  customerResponseSchema,
  imageAltResponseSchema,
  messagesResponseSchema,
  sendResponseSchema,
  setBotResponseSchema,
  type AskResponse,
  type ChannelsResponse,
  type ConversationsResponse,
  type CustomerResponse,
  type ImageAltResponse,
  type MessagesResponse,
  type SendResponse,
  type SetBotResponse,
} from './endpoint-schemas.js';
import type { CallOptions, ClientResponse, DroidClientOptions } from './types.js';

/** spec 8: the answer may take 180 s; leave 10 s of margin. */
export const DEFAULT_SYNC_TIMEOUT_MS = 190_000;
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

export type CustomerId = number | string;

function customerPath(customerId: CustomerId): string {
  return `/customer/${encodeURIComponent(String(customerId))}`;
}

export class DroidClient {
  readonly #ctx: CallContext;
  readonly #syncTimeoutMs: number;
  readonly #requestTimeoutMs: number;

  constructor(options: DroidClientOptions) {
    this.#ctx = createCallContext(options.baseUrl, options.droidId, options.token, options.dispatcher);
    this.#syncTimeoutMs = options.syncTimeoutMs ?? DEFAULT_SYNC_TIMEOUT_MS;
    this.#requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  }

  /** spec 8, POST get-droid-answer: holds the connection until the answer (default timeout 190 s). */
  getDroidAnswer(req: SyncAnswerRequest, opts: CallOptions = {}): Promise<ClientResponse<SyncAnswerResponse>> {
    const timeout = opts.timeoutMs ?? this.#syncTimeoutMs;
    return call(this.#ctx, 'get-droid-answer', 'POST', '/get-droid-answer', req, syncAnswerResponseSchema, timeout, opts.signal);
  }

  /** spec 9, POST get-droid-answer-async: acknowledgement `{success, requestId, message}` (< 100 ms). */
  getDroidAnswerAsync(req: AsyncAnswerRequest, opts: CallOptions = {}): Promise<ClientResponse<AsyncAck>> {
    const timeout = opts.timeoutMs ?? this.#requestTimeoutMs;
    return call(this.#ctx, 'get-droid-answer-async', 'POST', '/get-droid-answer-async', req, asyncAckSchema, timeout, opts.signal);
  }

  /** spec 1, GET channels. */
  channels(opts: CallOptions = {}): Promise<ClientResponse<ChannelsResponse>> {
    return call(this.#ctx, 'channels', 'GET', '/channels', undefined, channelsResponseSchema, this.#timeout(opts), opts.signal);
  }

  /** spec 2, GET messages/:customerId. */
  messages(customerId: CustomerId, opts: CallOptions = {}): Promise<ClientResponse<MessagesResponse>> {
    const path = `/messages/${encodeURIComponent(String(customerId))}`;
    return call(this.#ctx, 'messages', 'GET', path, undefined, messagesResponseSchema, this.#timeout(opts), opts.signal);
  }

  /** spec 3, GET customer/:customerId. */
  customer(customerId: CustomerId, opts: CallOptions = {}): Promise<ClientResponse<CustomerResponse>> {
    const path = customerPath(customerId);
    return call(this.#ctx, 'customer', 'GET', path, undefined, customerResponseSchema, this.#timeout(opts), opts.signal);
  }

  /** spec 4, GET customer/:customerId/conversations. */
  conversations(customerId: CustomerId, opts: CallOptions = {}): Promise<ClientResponse<ConversationsResponse>> {
    const path = `${customerPath(customerId)}/conversations`;
    return call(this.#ctx, 'conversations', 'GET', path, undefined, conversationsResponseSchema, this.#timeout(opts), opts.signal);
  }

  /** spec 5, POST customer/:customerId/ask `{prompt}` (at most 500 characters; the service enforces it). */
  ask(customerId: CustomerId, prompt: string, opts: CallOptions = {}): Promise<ClientResponse<AskResponse>> {
    const path = `${customerPath(customerId)}/ask`;
    return call(this.#ctx, 'ask', 'POST', path, { prompt }, askResponseSchema, this.#timeout(opts), opts.signal);
  }

  /** spec 6, POST send `{customerId, humanMessage}` (humanMessage: text or a public image URL). */
  send(req: SendRequest, opts: CallOptions = {}): Promise<ClientResponse<SendResponse>> {
    return call(this.#ctx, 'send', 'POST', '/send', req, sendResponseSchema, this.#timeout(opts), opts.signal);
  }

  /** spec 7, POST customer/:customerId `{botEnabled}`. */
  setBot(customerId: CustomerId, botEnabled: boolean, opts: CallOptions = {}): Promise<ClientResponse<SetBotResponse>> {
    const path = customerPath(customerId);
    return call(this.#ctx, 'customer-update', 'POST', path, { botEnabled }, setBotResponseSchema, this.#timeout(opts), opts.signal);
  }

  /** spec 10, POST get-image-alt `{imageUrl}`. */
  imageAlt(imageUrl: string, opts: CallOptions = {}): Promise<ClientResponse<ImageAltResponse>> {
    return call(this.#ctx, 'get-image-alt', 'POST', '/get-image-alt', { imageUrl }, imageAltResponseSchema, this.#timeout(opts), opts.signal);
  }

  #timeout(opts: CallOptions): number {
    return opts.timeoutMs ?? this.#requestTimeoutMs;
  }
}
