/**
 * Seeded pseudo-random numbers (mulberry32): the emulator draws every random choice
 * (retry jitter, fault dice, delay distributions) from one of these, so the same seed
 * gives the same sequence.
 */

import { mulberry32, type Random } from '../random.js';

export type { Random };

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
