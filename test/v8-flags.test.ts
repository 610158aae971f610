/**
 * The V8 flags `load` and `capacity` set (src/v8-flags.ts): both by default, and neither whose
 * setting the user gave node (NODE_OPTIONS or the command line), in any spelling V8 accepts.
 * The flags' effect on memory and CPU is measured in bench/pending.js, not here.
 */
import { describe, expect, it } from 'vitest';
import { heapFlagsToSet } from '../src/v8-flags.js';

const ALL = ['--heap-growing-percent=10', '--semi-space-growth-factor=1'];

describe('heapFlagsToSet', () => {
  it('sets every flag when node was given none of their settings', () => {
    expect(heapFlagsToSet([])).toEqual(ALL);
    expect(heapFlagsToSet(['--enable-source-maps', '', '--max-old-space-size=4096'])).toEqual(ALL);
  });

  it.each([
    ['--heap-growing-percent=25', ['--semi-space-growth-factor=1']],
    ['--heap_growing_percent=25', ['--semi-space-growth-factor=1']],
    ['--heap-growing-percent', ['--semi-space-growth-factor=1']],
    ['--semi-space-growth-factor=2', ['--heap-growing-percent=10']],
    ['--semi_space_growth_factor=2', ['--heap-growing-percent=10']],
  ])("leaves the user's %s as given", (given, set) => {
    expect(heapFlagsToSet([given])).toEqual(set);
  });

  it('does not take another setting sharing a prefix for the one it sets', () => {
    // --heap-growing-percent-x is not V8's; a prefix match would have skipped the real one.
    expect(heapFlagsToSet(['--heap-growing-percent-x=1', '--semi-space-growth-factors'])).toEqual(ALL);
  });
});
