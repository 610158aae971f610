/**
 * Shapes of the droid client (docs/architecture.md, Layout: client/).
 */
import type { Dispatcher } from 'undici';
import type { ContractCheck } from '../contract/index.js';
import type { RequestRetry } from './retry.js';
import type { SyncMessageForm, SyncMessageFormOption } from './sync-message-form.js';

export interface DroidClientOptions {
  /** Service base address, e.g. `http://127.0.0.1:3000` (a path prefix is kept). */
  baseUrl: string;
  droidId: number | string;
  /** Bearer token (spec: Authentication). Never appears in an error message or excerpt. */
  token: string;
  /** undici dispatcher used for every call (never the global one). */
  dispatcher: Dispatcher;
  /** get-droid-answer headers/body timeout, ms. Default 190_000 (spec 8: up to 180 s). */
  syncTimeoutMs?: number;
  /** Every other endpoint's headers/body timeout, ms. Default 30_000. */
  requestTimeoutMs?: number;
  /**
   * The form of get-droid-answer's `humanMessage` on the wire: `object` `{content, type}` (the
   * async docs page), `string` (the endpoint docs page), or `auto` (default): object first, and on
   * 400 `Invalid humanMessage format` retry that request once in the other form and keep it.
   */
  syncMessageForm?: SyncMessageFormOption;
  /** Called once each time `auto` switches form, with the new form and a sentence saying why. */
  onSyncMessageForm?: (form: SyncMessageForm, reason: string) => void;
}

/** Per-call options. */
export interface CallOptions {
  /** Cancels the call; the promise then rejects with AbortedError. */
  signal?: AbortSignal;
  /** Overrides the endpoint's default timeout, ms. */
  timeoutMs?: number;
  /**
   * W3C Trace Context headers for this call (`traceparent`, and `tracestate` when set: W3C Trace
   * Context, section 3), so a service that traces joins the caller's trace. Absent: none sent.
   */
  trace?: TraceHeaders | undefined;
}

/** The W3C Trace Context headers of one call: `traceparent` `00-<trace-id>-<parent-id>-<flags>`, and `tracestate`. */
export interface TraceHeaders {
  traceparent: string;
  tracestate?: string | undefined;
}

/** Options of the two answer calls (get-droid-answer, get-droid-answer-async). */
export interface AnswerCallOptions extends CallOptions {
  /**
   * Opt-in retry of 429/5xx, and of no HTTP answer except for get-droid-answer-async (client/retry.ts);
   * the promise settles with the last attempt. Absent: one attempt.
   */
  retry?: RequestRetry | undefined;
}

/** A 2xx answer: the parsed JSON body and its contract check. */
export interface ClientResponse<T> {
  status: number;
  /** Parsed JSON as received; typed as T, but only guaranteed when `contract.ok`. */
  body: T;
  /** violations (documented tier, findings), unverified (droidcheck's choice, never a finding), unknownFields (on read). */
  contract: ContractCheck<T>;
  headers: Record<string, string | string[] | undefined>;
}

export type HttpMethod = 'GET' | 'POST';
