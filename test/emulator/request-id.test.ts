/**
 * Ids in the service's formats: requestId `tpa-` + 24 lowercase alphanumerics (async docs page),
 * message ids `ddtp-` + 20 (receiving-webhook page); unique within and across factories.
 */
import { describe, expect, it } from 'vitest';
import { createIdFactory, createMessageIdFactory, createRequestIdFactory } from '../../src/emulator/request-id.js';

describe('request and message ids', () => {
  it('requestIds are tpa- + 24 lowercase letters and digits, unique across factories', () => {
    const a = createRequestIdFactory();
    const b = createRequestIdFactory();
    const ids = [...Array.from({ length: 1000 }, a), ...Array.from({ length: 1000 }, b)];
    for (const id of ids) expect(id).toMatch(/^tpa-[a-z][a-z0-9]{23}$/);
    expect(new Set(ids).size).toBe(2000);
  });

  it('message ids are ddtp- + 20 lowercase letters and digits', () => {
    const next = createMessageIdFactory();
    expect(next()).toMatch(/^ddtp-[a-z][a-z0-9]{19}$/);
  });

  it('keeps the length when the counter grows', () => {
    const next = createIdFactory('x-', 6, 3);
    const ids = Array.from({ length: 50 }, next);
    expect(new Set(ids.map((i) => i.length))).toEqual(new Set([8]));
  });
});
