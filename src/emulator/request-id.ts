/**
 * Request ids `tpa-<unique>` (spec: Answer payload fields, requestId "starts with tpa-").
 * An 8-hex instance prefix (from the OS, not the seed, so two emulators never collide on
 * one receiver) plus a counter: cheap on the hot path.
 */
import { randomBytes } from 'node:crypto';
import { REQUEST_ID_PREFIX } from '../contract/index.js';

export type RequestIdFactory = () => string;

export function createRequestIdFactory(): RequestIdFactory {
  const instance = randomBytes(4).toString('hex');
  let counter = 0;
  return () => {
    counter += 1;
    return `${REQUEST_ID_PREFIX}${instance}-${counter.toString(36).padStart(6, '0')}`;
  };
}
