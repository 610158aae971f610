/**
 * Ids the service hands out, in its format:
 * - requestId: `tpa-` + 24 lowercase letters and digits (async docs page example
 *   `tpa-d5cacv27v60xfhlqpap1gm76`; spec: "starts with tpa-");
 * - message id `mid`: `ddtp-` + 20 lowercase letters and digits (docs receiving-webhook.mdx
 *   example `ddtp-ckz9abc123xyz`).
 * Each id is an instance part drawn from the OS (not the seed, so two emulators sharing one
 * receiver never collide) followed by a base-36 counter: cheap on the hot path.
 */
import { randomBytes } from 'node:crypto';
import { REQUEST_ID_PREFIX } from '../contract/index.js';

export type RequestIdFactory = () => string;

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** `n` random lowercase letters and digits; the first is a letter (cuid-like). */
function randomPart(n: number): string {
  const bytes = randomBytes(n);
  let out = ALPHABET[bytes[0]! % 26]!;
  for (let i = 1; i < n; i++) out += ALPHABET[bytes[i]! % 36]!;
  return out;
}

/**
 * A factory of `${prefix}` + `length` lowercase alphanumerics: `length - counterChars` random
 * characters per factory, then the counter in base 36, zero-padded.
 */
export function createIdFactory(prefix: string, length: number, counterChars = 10): RequestIdFactory {
  const instance = prefix + randomPart(length - counterChars);
  let counter = 0;
  return () => {
    counter += 1;
    return instance + counter.toString(36).padStart(counterChars, '0');
  };
}

/** `tpa-` + 24 lowercase alphanumerics (14 random per emulator, then a 10-character counter). */
export function createRequestIdFactory(): RequestIdFactory {
  return createIdFactory(REQUEST_ID_PREFIX, 24);
}

/** The message-id prefix of the docs' MessageForwarding example. */
const MESSAGE_ID_PREFIX = 'ddtp-';

/** `ddtp-` + 20 lowercase alphanumerics. */
export function createMessageIdFactory(): RequestIdFactory {
  return createIdFactory(MESSAGE_ID_PREFIX, 20, 8);
}
