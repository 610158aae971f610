/**
 * Token accounting helpers (model calls cost money, so their token usage is counted and
 * reported): an empty
 * count, the sum of two (shards, merged reports) and the console line.
 */
import { formatCount } from '../units.js';
import type { LlmUsage } from './types.js';

export function zeroLlmUsage(): LlmUsage {
  return {
    chatCalls: 0,
    embeddingCalls: 0,
    httpRequests: 0,
    promptTokens: 0,
    completionTokens: 0,
    totalTokens: 0,
    cacheHits: 0,
    judgeErrors: 0,
  };
}

const n = formatCount;

/** `Judge  calls 12 (chat 9, embeddings 3) · HTTP requests 13 · tokens 4,512 (prompt 4,100, completion 412) · cache hits 30 · judge errors 0`. */
export function formatLlmUsage(u: LlmUsage): string {
  return (
    `Judge  calls ${n(u.chatCalls + u.embeddingCalls)} (chat ${n(u.chatCalls)}, embeddings ${n(u.embeddingCalls)}) · ` +
    `HTTP requests ${n(u.httpRequests)} · tokens ${n(u.totalTokens)} (prompt ${n(u.promptTokens)}, completion ${n(u.completionTokens)}) · ` +
    `cache hits ${n(u.cacheHits)} · judge errors ${n(u.judgeErrors)}`
  );
}
