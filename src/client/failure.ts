/**
 * Turns what went wrong in one call into droidcheck errors (src/errors.ts), with the token redacted:
 * non-2xx => ApiError; no HTTP answer => TransportError; undici headers/body timeout => TimeoutError;
 * AbortSignal => AbortedError; 2xx body that is not JSON => ContractError.
 */
import { AbortedError, ApiError, ContractError, TimeoutError, TransportError } from '../errors.js';

/** Maximum characters of a body kept in an error (`bodyExcerpt`). */
const EXCERPT_CHARS = 500;
const REDACTED = '[REDACTED]';
const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/** Replaces every occurrence of `secret` in `text`. An empty secret redacts nothing. */
function redact(text: string, secret: string): string {
  return secret.length > 0 && text.includes(secret) ? text.split(secret).join(REDACTED) : text;
}

/** First EXCERPT_CHARS characters of `text`, token redacted first (so no token survives a cut). */
function excerpt(text: string, token: string): string {
  return redact(text, token).slice(0, EXCERPT_CHARS);
}

/**
 * `Retry-After` in seconds: delta-seconds or an HTTP-date (RFC 9110 10.2.3); undefined when absent
 * or unreadable. Dates in the past give 0.
 */
function parseRetryAfter(value: string | string[] | undefined, nowMs = Date.now()): number | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  if (raw === undefined) return undefined;
  const trimmed = raw.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - nowMs) / 1000));
}

/** ApiError from a non-2xx answer; `error`/`message` from the spec's `{error, message}` body when present. */
export function apiError(
  endpoint: string,
  status: number,
  text: string,
  headers: Record<string, string | string[] | undefined>,
  token: string,
): ApiError {
  let error: string | undefined;
  let message: string | undefined;
  if (text.length > 0 && (text[0] === '{' || text.trimStart().startsWith('{'))) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (parsed !== null && typeof parsed === 'object') {
        const e = (parsed as { error?: unknown }).error;
        const m = (parsed as { message?: unknown }).message;
        if (typeof e === 'string') error = redact(e, token).slice(0, EXCERPT_CHARS);
        if (typeof m === 'string') message = redact(m, token).slice(0, EXCERPT_CHARS);
      }
    } catch {
      // not JSON: keep the excerpt only
    }
  }
  return new ApiError({
    endpoint,
    status,
    error,
    message,
    retryAfterS: parseRetryAfter(headers['retry-after']),
    bodyExcerpt: excerpt(text, token),
  });
}

/** ContractError for a 2xx body that is empty or not JSON (truncated, HTML...). */
export function notJsonError(
  endpoint: string,
  text: string,
  contentType: string | string[] | undefined,
  parseMessage: string,
  token: string,
): ContractError {
  const ct = Array.isArray(contentType) ? contentType[0] : contentType;
  const what = text.length === 0 ? 'empty body' : `body is not JSON (${redact(parseMessage, token).slice(0, 200)})`;
  return new ContractError(
    endpoint,
    [{ path: '', message: `${what}; content-type ${ct ?? 'absent'}` }],
    excerpt(text, token),
  );
}

function codeOf(err: unknown): string | undefined {
  if (err === null || typeof err !== 'object') return undefined;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string') return code;
  const inner = (err as { errors?: unknown }).errors; // AggregateError (happy eyeballs)
  if (Array.isArray(inner) && inner.length > 0) return codeOf(inner[0]);
  return undefined;
}

/**
 * Maps an exception thrown by undici (request or body read) to AbortedError, TimeoutError or
 * TransportError (causeCode: the undici/Node code, e.g. ECONNREFUSED, UND_ERR_SOCKET).
 */
export function transportFailure(
  endpoint: string,
  err: unknown,
  signal: AbortSignal | undefined,
  timeoutMs: number,
  token: string,
): Error {
  if (signal?.aborted) return new AbortedError(`${endpoint}: aborted`);
  const code = codeOf(err);
  if (code !== undefined && TIMEOUT_CODES.has(code)) {
    return new TimeoutError(`${endpoint}: no complete response within ${timeoutMs} ms (${code})`);
  }
  if (code === 'UND_ERR_ABORTED' || (err instanceof Error && err.name === 'AbortError')) {
    return new AbortedError(`${endpoint}: aborted`);
  }
  const innerCode = codeOf((err as { cause?: unknown } | null)?.cause);
  const detail = err instanceof Error ? redact(err.message, token) : 'unknown error';
  const codes = [code, innerCode].filter((c) => c !== undefined && c !== '').join('/');
  return new TransportError(`${endpoint}: no HTTP answer (${codes || 'no code'}: ${detail})`, code ?? innerCode, {
    cause: err,
  });
}
