/**
 * The units every figure is printed in (src/units.ts): the unit chosen after rounding, so a
 * duration just under a second never reads "1000 ms" where the same wait read "1 s" before.
 */
import { describe, expect, it } from 'vitest';
import { formatMs } from '../src/units.js';

describe('formatMs', () => {
  it.each([
    [0.1234, '0.123 ms'],
    [5.678, '5.68 ms'],
    [42.25, '42.3 ms'],
    [999.4, '999 ms'],
    [999.5, '1 s'],
    [999.97, '1 s'],
    [1000, '1 s'],
    [1234, '1.23 s'],
    [12_345, '12.3 s'],
  ])('%s ms reads %s', (ms, text) => {
    expect(formatMs(ms)).toBe(text);
  });
});
