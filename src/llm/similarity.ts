/**
 * Cosine similarity of embedding vectors (the `similar` matcher): dot(a, b) / (|a| |b|), in
 * -1..1. Defined only for two vectors of the same length, each non-empty, finite and not all
 * zeros: anything else (a model that answered zeros, an overflow, vectors of two models or two
 * dimensions) has no similarity, so it is a problem to report (the grader makes it a judge
 * error naming the model), never a score of 0 that would read as "unlike".
 */

/** Why `v` cannot take part in a cosine similarity (empty, a NaN or infinite component, all zeros); undefined when it can. */
export function vectorProblem(v: Float32Array): string | undefined {
  if (v.length === 0) return 'is empty';
  let zero = true;
  for (let i = 0; i < v.length; i++) {
    const x = v[i]!;
    if (!Number.isFinite(x)) return `has a non-finite component (${x} at index ${i})`;
    if (x !== 0) zero = false;
  }
  return zero ? `is all zeros (${v.length} dimensions)` : undefined;
}

/**
 * Why the labelled vectors cannot be compared with each other: the first one's vectorProblem
 * ("the answer is all zeros (64 dimensions)"), else lengths that differ ("vectors of different
 * lengths: the answer 64, reference 1 768"); undefined when every pair can be.
 */
export function incomparable(vectors: readonly { label: string; vector: Float32Array }[]): string | undefined {
  for (const { label, vector } of vectors) {
    const problem = vectorProblem(vector);
    if (problem) return `the vector of ${label} ${problem}`;
  }
  const lengths = new Set(vectors.map((v) => v.vector.length));
  if (lengths.size > 1)
    return `vectors of different lengths: ${vectors.map((v) => `${v.label} ${v.vector.length}`).join(', ')}`;
  return undefined;
}

/** The cosine similarity of `a` and `b`, -1..1. Throws RangeError when they cannot be compared (module docs). */
export function cosineSimilarity(a: Float32Array, b: Float32Array): number {
  const problem = incomparable([
    { label: 'a', vector: a },
    { label: 'b', vector: b },
  ]);
  if (problem) throw new RangeError(`cosine similarity: ${problem}`);
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  // Summed as doubles: a finite float32 (|x| < 3.5e38, >= 1.4e-45 when not 0) squares to a
  // finite double > 0, so na and nb are finite and positive here.
  const s = dot / Math.sqrt(na * nb);
  return Math.max(-1, Math.min(1, s));
}

/**
 * The reference most similar to `text`: its index and score (index -1, score 0 when there is
 * none). Throws RangeError as cosineSimilarity does; call `incomparable` first to name the
 * vectors in the message.
 */
export function bestMatch(text: Float32Array, references: readonly Float32Array[]): { index: number; score: number } {
  let index = -1;
  let score = 0;
  references.forEach((r, i) => {
    const s = cosineSimilarity(text, r);
    if (index === -1 || s > score) {
      index = i;
      score = s;
    }
  });
  return { index, score };
}
