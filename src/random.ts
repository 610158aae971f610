/**
 * Seeded pseudo-random numbers (mulberry32), shared by the emulator (faults, jitter) and the
 * load mix, so the same seed gives the same sequence. Imports nothing of ours.
 */

/** A source of uniform floats in [0, 1). */
export type Random = () => number;

/** mulberry32: a tiny, fast 32-bit PRNG. `seed` is any integer. */
export function mulberry32(seed: number): Random {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
