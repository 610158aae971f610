/**
 * Webhook secret check (spec: Authentication 7; Events, Configuration): the service appends the
 * secret as `?secret=`. Both sides are hashed with SHA-256 first so the comparison is constant
 * time and equal length whatever the input, and the length of the secret does not leak.
 */
import { createHash, timingSafeEqual } from 'node:crypto';

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/** Returns a predicate: true when `provided` (a query value) equals `secret`. Arrays and non-strings fail. */
export function createSecretCheck(secret: string): (provided: unknown) => boolean {
  const expected = digest(secret);
  return (provided) => typeof provided === 'string' && timingSafeEqual(digest(provided), expected);
}

/** Replaces the value of every `secret` query parameter in a URL path, for logs. */
export function redactSecretParam(url: string): string {
  return url.replace(/([?&]secret=)[^&#]*/gi, '$1[REDACTED]');
}
