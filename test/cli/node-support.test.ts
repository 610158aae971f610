/**
 * The unsupported-Node.js line (src/cli/node-support.ts): said below 22.12 only, and within the
 * 100 columns of every console line, for the long version strings Node.js prints (a nightly's).
 */
import { describe, expect, it } from 'vitest';
import { unsupportedNodeLine } from '../../src/cli/node-support.js';

describe('unsupportedNodeLine', () => {
  it('names an unsupported version and the supported lines', () => {
    expect(unsupportedNodeLine('v20.20.2')).toBe(
      'droidcheck: unsupported Node.js v20.20.2: use 22.12 or newer (22, 24, 26)',
    );
    expect(unsupportedNodeLine('v22.11.0')).toContain('v22.11.0');
    expect(unsupportedNodeLine('v18.0.0')).toContain('use 22.12 or newer');
  });

  it('says nothing from 22.12 on', () => {
    for (const v of ['v22.12.0', 'v22.23.3', 'v24.21.0', 'v26.12.1', 'v30.0.0'])
      expect(unsupportedNodeLine(v)).toBeUndefined();
  });

  it('fits 100 columns with the longest version strings', () => {
    for (const v of ['v21.99.99', 'v21.0.0-nightly20231018abcdef0123']) {
      expect(unsupportedNodeLine(v)!.length).toBeLessThanOrEqual(100);
    }
  });
});
