/**
 * Secret checks of the three webhooks: the answer webhook's `?secret=` (spec: Authentication 7;
 * Events, Configuration), the message webhook's `?verify_token=` (docs: receiving-webhook.mdx) and
 * the intent webhook's body `secret` (docs: intent-webhook.mdx). Both sides are hashed with
 * SHA-256 first so the comparison is constant time and equal length whatever the input, and the
 * length of the secret does not leak.
 */
import { createHash, timingSafeEqual } from 'node:crypto';

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/** Returns a predicate: true when `provided` (a query or body value) equals `secret`. Arrays and non-strings fail. */
export function createSecretCheck(secret: string): (provided: unknown) => boolean {
  const expected = digest(secret);
  return (provided) => typeof provided === 'string' && timingSafeEqual(digest(provided), expected);
}

/** Replaces the value of every `secret` and `verify_token` query parameter in a URL path, for logs. */
export function redactSecretParam(url: string): string {
  return url.replace(/([?&](?:secret|verify_token)=)[^&#]*/gi, '$1[REDACTED]');
}
