/**
 * Memoises the rule engine on (message, history) for one catalogue and intent set: a load test
 * repeats the same few scenarios thousands of times per second. Bounded; cleared wholesale when
 * full. Cached bodies are shared and must be treated as immutable.
 */
import type { ChatHistoryItem } from '../contract/index.js';
import { analyseAnswer, type AnalysedAnswer } from './ai/index.js';
import type { Catalogue } from './ai/catalogue.js';
import type { IntentDefinition } from './ai/intent-config.js';
import type { PlantedWeaknesses } from './ai/weaknesses.js';

export class AnswerCache {
  private readonly map = new Map<string, AnalysedAnswer>();

  constructor(
    private readonly catalogue: Catalogue,
    private readonly intents: readonly IntentDefinition[],
    private readonly maxEntries = 1_000,
    /**
     * Planted weaknesses (ai/weaknesses.ts): the history the droid reads (`historyOf`, memoised like
     * any input), then those applied after the memo, whose answers are never memoised.
     */
    private readonly weaknesses?: PlantedWeaknesses,
  ) {}

  /** The answer body and the facts behind it (language, payment method). */
  get(humanMessage: string, sent: ChatHistoryItem[]): AnalysedAnswer {
    const chatHistory = this.weaknesses ? this.weaknesses.historyOf(sent) : sent;
    let key = humanMessage;
    for (const turn of chatHistory) key += `\u0000${turn.type}\u0001${turn.content}`;
    let answer = this.map.get(key);
    if (!answer) {
      answer = analyseAnswer({ humanMessage, chatHistory }, this.catalogue, this.intents);
      if (this.map.size >= this.maxEntries) this.map.clear();
      this.map.set(key, answer);
    }
    return this.weaknesses?.any ? this.weaknesses.apply({ humanMessage, chatHistory }, answer) : answer;
  }
}
