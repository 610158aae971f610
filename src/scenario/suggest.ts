/**
 * "Did you mean" suggestions for unknown keys and matcher names: optimal string alignment
 * distance (Levenshtein plus adjacent transpositions).
 */

/** Edit distance between `a` and `b`; an adjacent transposition counts 1. */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[] = new Array<number>(rows * cols).fill(0);
  const at = (i: number, j: number): number => d[i * cols + j] ?? 0;
  for (let i = 0; i < rows; i++) d[i * cols] = i;
  for (let j = 0; j < cols; j++) d[j] = j;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, at(i - 2, j - 2) + 1);
      d[i * cols + j] = v;
    }
  }
  return at(a.length, b.length);
}

/**
 * The closest candidate to `word`, or undefined when none is close enough
 * (distance <= 2, or <= a third of the word's length; case differences are free).
 */
export function didYouMean(word: string, candidates: readonly string[]): string | undefined {
  const lower = word.toLowerCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const c of candidates) {
    if (c === word) continue;
    const dist = c.toLowerCase() === lower ? 0 : editDistance(lower, c.toLowerCase());
    if (dist < bestDistance) {
      best = c;
      bestDistance = dist;
    }
  }
  const limit = Math.max(2, Math.floor(word.length / 3));
  return best !== undefined && bestDistance <= limit ? best : undefined;
}
