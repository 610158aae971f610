/**
 * Seeded pseudo-random numbers (mulberry32): the emulator draws every random choice
 * (retry jitter, fault dice, delay distributions) from one of these, so the same seed
 * gives the same sequence.
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

/** Derives an independent stream from a seed and a label, so subsystems do not share draws. */
export function childRandom(seed: number, label: string): Random {
  let h = seed >>> 0;
  for (let i = 0; i < label.length; i++) h = Math.imul(h ^ label.charCodeAt(i), 0x01000193) >>> 0;
  return mulberry32(h);
}

/** Standard normal deviate (Box-Muller) from a uniform source. */
export function normal(random: Random): number {
  const u = Math.max(random(), Number.EPSILON);
  const v = random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}
