/**
 * "Did you mean ...?" for misspelt names (leaf module): scenario keys, matcher names, reporter
 * names, threshold metrics, flags.
 */

/** Levenshtein edit distance between two strings (case-sensitive). */
export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      cur[j] = Math.min((prev[j] ?? 0) + 1, (cur[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost);
    }
    prev = cur;
  }
  return prev[b.length] ?? 0;
}

/**
 * The candidate closest to `name` (case-insensitive), or undefined when none is within
 * max(2, a third of the name's length) edits.
 */
export function didYouMean(name: string, candidates: Iterable<string>): string | undefined {
  const lower = name.toLowerCase();
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(name.length / 3)) + 1;
  for (const c of candidates) {
    const d = editDistance(lower, c.toLowerCase());
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return best;
}

/** `; did you mean "x"?` or "" (for appending to an error message). */
export function didYouMeanText(name: string, candidates: Iterable<string>): string {
  const s = didYouMean(name, candidates);
  return s === undefined ? '' : `; did you mean "${s}"?`;
}
