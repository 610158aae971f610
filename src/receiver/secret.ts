/**
 * Secret checks of the three webhooks: the answer webhook's `?secret=` (the spec's Authentication,
 * Events and Configuration sections), the message webhook's `?verify_token=` (the service's
 * message-forwarding docs) and the intent webhook's body `secret` (the service's intent-webhook
 * docs; docs/receiver.md).
 *
 * Constant time without hashing: every character of the provided value is compared with the
 * secret's character at the same position, the secret repeated as often as needed, and a length
 * difference is folded into the same result. There is no early exit, and the number of steps is
 * the length of the *provided* value (the caller's own input), so the time tells an attacker
 * neither a prefix of the secret nor its length.
 * Cost per check: one loop over the provided value (~0.05 us for a 40-character secret), no
 * allocation. It runs once per webhook, so it is on the receiver's hot path (bench/receiver.js);
 * a SHA-256 of both sides cost ~1 us and a 64-character string per webhook.
 */

/** True when `provided` equals `expected`; reads every character of `provided`, no early exit. */
function sameSecret(provided: string, expected: string): boolean {
  const n = provided.length;
  const m = expected.length;
  let diff = n ^ m;
  for (let i = 0; i < n; i++) diff |= provided.charCodeAt(i) ^ expected.charCodeAt(i % m);
  return diff === 0;
}

/**
 * Returns a predicate: true when `provided` (a query or body value) equals `secret` (a non-empty
 * string). Arrays and non-strings fail.
 */
export function createSecretCheck(secret: string): (provided: unknown) => boolean {
  return (provided) => typeof provided === 'string' && sameSecret(provided, secret);
}

/** Replaces the value of every `secret` and `verify_token` query parameter in a URL path, for logs. */
export function redactSecretParam(url: string): string {
  return url.replace(/([?&](?:secret|verify_token)=)[^&#]*/gi, '$1[REDACTED]');
}
