/**
 * The planted knee (`degradeAbove`, profile and `droidcheck emulate --degrade-above`): a droid
 * whose answers stay on time but turn wrong once it is saturated, as an AI service does when its
 * workers, rate limits or context caches run out (a generic apology, an empty cart, no intent,
 * from a fallback model). It lets `capacity --min-pass-rate` be demonstrated and tested without a
 * real service. The degraded body is a well-formed answer payload (the contract holds), so only
 * a scenario's expectations can tell it from a right one.
 */
import { aiMessage, type AnalysedAnswer, type AnswerBody } from './index.js';
import type { Catalogue } from './catalogue.js';
import { priceCart } from './cart.js';

/** The whole answer of a saturated droid. */
export const DEGRADED_ANSWER = "Sorry, I'm having trouble right now. Please try again in a moment.";

/** Degraded bodies, one per right body (bodies are cached and immutable: answer-job.ts serialises each once). */
const degraded = new WeakMap<AnswerBody, AnalysedAnswer>();

/** `base` as a saturated droid answers it: the apology, an empty cart of `catalogue`, no intent; the address and contact details kept. */
export function degradedAnswer(base: AnalysedAnswer, catalogue: Catalogue): AnalysedAnswer {
  const known = degraded.get(base.body);
  if (known) return known;
  const b = base.body;
  const body: AnswerBody = {
    ...b,
    responses: [aiMessage(DEGRADED_ANSWER)],
    answer: DEGRADED_ANSWER,
    customerInsight: { ...b.customerInsight, intents: [], user_intent: '', product_keyword: [] },
    shoppingCart: priceCart([], catalogue).cart,
    intents: [],
  };
  const answer = { body, facts: base.facts };
  degraded.set(b, answer);
  return answer;
}

/**
 * Answers in progress (accepted, not yet answered: sync and async alike) and whether the one
 * beginning now is past the knee. `above` null: never degrades (the default).
 */
export class Saturation {
  inProgress = 0;

  /** Throws RangeError unless `above` is null or a whole number >= 1. */
  constructor(readonly above: number | null) {
    if (above !== null && !(Number.isInteger(above) && above >= 1))
      throw new RangeError(`emulator option degradeAbove must be a whole number >= 1 or null, got ${String(above)}`);
  }

  /** One more answer in progress; true when it should degrade (more than `above` in progress, this one included). */
  begin(): boolean {
    this.inProgress += 1;
    return this.above !== null && this.inProgress > this.above;
  }

  /** That answer was given (or abandoned). */
  end(): void {
    this.inProgress = Math.max(0, this.inProgress - 1);
  }
}
