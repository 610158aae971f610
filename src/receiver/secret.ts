/**
 * Secret checks of the three webhooks: the answer webhook's `?secret=` (spec: Authentication 7;
 * Events, Configuration), the message webhook's `?verify_token=` (docs: receiving-webhook.mdx) and
 * the intent webhook's body `secret` (docs: intent-webhook.mdx). Both sides are hashed with
 * SHA-256 first, so the comparison is between two 64-character hex digests whatever the input:
 * equal length, and the length of the secret does not leak. The digests are compared in constant
 * time (every character, no early exit); even a timing difference would only tell an attacker
 * about the digest of their own guess, not a prefix of the secret.
 * Cost per check: one one-shot `crypto.hash` (~1 us), no Hash object and no Buffer: it runs
 * once per webhook, so its cost bounds the receiver's throughput.
 */
import { hash } from 'node:crypto';

const DIGEST_CHARS = 64;

function digest(value: string): string {
  return hash('sha256', value, 'hex');
}

/** True when the two 64-character digests are equal; reads every character. */
function sameDigest(a: string, b: string): boolean {
  let diff = 0;
  for (let i = 0; i < DIGEST_CHARS; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/** Returns a predicate: true when `provided` (a query or body value) equals `secret`. Arrays and non-strings fail. */
export function createSecretCheck(secret: string): (provided: unknown) => boolean {
  const expected = digest(secret);
  return (provided) => typeof provided === 'string' && sameDigest(digest(provided), expected);
}

/** Replaces the value of every `secret` and `verify_token` query parameter in a URL path, for logs. */
export function redactSecretParam(url: string): string {
  return url.replace(/([?&](?:secret|verify_token)=)[^&#]*/gi, '$1[REDACTED]');
}
