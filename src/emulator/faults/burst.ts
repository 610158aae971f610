/**
 * The machinery of the `burst-first-late` fault (profile.ts): a droid that answers the first
 * message of a burst later than the rest (docs/bursts.md), so the customer's last reply answers
 * a message they had moved past.
 *
 * A burst is what the service can see of one: a message whose chatHistory ends in human turns,
 * sent before their answers came. Its first message is the first of those turns; that message's
 * own request sent the history before it. Every answer request is registered here while its
 * answer is being made (only when the profile has the fault: nothing is kept otherwise), keyed by
 * the history it sent and its message; a later message of its burst finds it by that key and holds
 * it `delayMs` more (once). An answer already on its way is not held: the fault needs answers
 * slower than the burst's gap, as a real droid's are (the emulator's `answerDelay`).
 */
import type { ChatHistoryItem } from '../../contract/index.js';

/** One answer being made: its key, and how much longer it is held (ms) once a later message of its burst asked. */
export interface PendingAnswer {
  readonly key: string;
  extraMs: number;
}

/** The key of a request's conversation: its history, then its message. */
function keyOf(chatHistory: readonly ChatHistoryItem[], humanMessage: string): string {
  let key = humanMessage;
  for (const turn of chatHistory) key += `\u0000${turn.type}\u0001${turn.content}`;
  return key;
}

export class PendingAnswers {
  readonly #byKey = new Map<string, PendingAnswer[]>();

  /** Registers an answer being made for (`chatHistory`, `humanMessage`); `done` it when it is answered. */
  add(chatHistory: readonly ChatHistoryItem[], humanMessage: string): PendingAnswer {
    const p: PendingAnswer = { key: keyOf(chatHistory, humanMessage), extraMs: 0 };
    const list = this.#byKey.get(p.key);
    if (list) list.push(p);
    else this.#byKey.set(p.key, [p]);
    return p;
  }

  /** The answer is made (or dropped): forgets it and returns how much longer it is held, ms. */
  done(p: PendingAnswer): number {
    const list = this.#byKey.get(p.key);
    const at = list?.indexOf(p) ?? -1;
    if (list && at >= 0) {
      list.splice(at, 1);
      if (list.length === 0) this.#byKey.delete(p.key);
    }
    const extra = p.extraMs;
    p.extraMs = 0;
    return extra;
  }

  /**
   * A message arrived with `chatHistory`: when it ends in human turns, the oldest pending answer
   * to the first of them that is not held yet is held `ms` more. Returns true when one was.
   */
  holdFirstOfBurst(chatHistory: readonly ChatHistoryItem[], ms: number): boolean {
    let first = chatHistory.length;
    while (first > 0 && chatHistory[first - 1]!.type === 'human') first--;
    if (first === chatHistory.length) return false;
    const list = this.#byKey.get(keyOf(chatHistory.slice(0, first), chatHistory[first]!.content));
    const p = list?.find((x) => x.extraMs === 0);
    if (!p) return false;
    p.extraMs = ms;
    return true;
  }
}
