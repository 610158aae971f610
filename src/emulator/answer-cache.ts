/**
 * Memoises `generateAnswer` on (message, history, catalogue): a load test repeats the same
 * few scenarios thousands of times per second. Bounded; cleared wholesale when full.
 * Cached bodies are shared and must be treated as immutable.
 */
import type { ChatHistoryItem } from '../contract/index.js';
import { generateAnswer, type AnswerBody } from './ai/index.js';
import type { Catalogue } from './ai/catalogue.js';

export class AnswerCache {
  private readonly map = new Map<string, AnswerBody>();

  constructor(
    private readonly catalogue: Catalogue,
    private readonly maxEntries = 1_000,
  ) {}

  get(humanMessage: string, chatHistory: ChatHistoryItem[]): AnswerBody {
    let key = humanMessage;
    for (const turn of chatHistory) key += `\u0000${turn.type}\u0001${turn.content}`;
    let body = this.map.get(key);
    if (!body) {
      body = generateAnswer({ humanMessage, chatHistory }, this.catalogue);
      if (this.map.size >= this.maxEntries) this.map.clear();
      this.map.set(key, body);
    }
    return body;
  }
}
