/**
 * Cosine similarity of embedding vectors (the `similar` matcher): dot(a, b) / (|a| |b|), in
 * -1..1; 0 when either vector is all zeros or their lengths differ (another model's vectors).
 */

export function cosineSimilarity(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length || a.length === 0) return 0;
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
  if (na === 0 || nb === 0) return 0;
  const s = dot / Math.sqrt(na * nb);
  return Math.max(-1, Math.min(1, s));
}

/** The reference most similar to `text`: its index and score (index -1, score 0 when none). */
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
