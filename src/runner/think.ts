/**
 * Think time of a conversation (docs/conversations.md): the customer's pause before a step, as
 * k6's `sleep()` and Artillery's `think` model it. A pause never counts in a latency: the turn
 * after it is measured from its own intended start, the end of the pause.
 *
 * Which pause applies: the step's own `think:`, else the scenario's `think:` for every `say`
 * after the first one (the first turn starts at the conversation's arrival). Random pauses are
 * drawn from a PRNG seeded with the request's `seq` (its plan position or mix draw number,
 * itself reproducible from `--seed`), so the same run draws the same pauses in any schedule.
 */
import type { Clock } from '../clock.js';
import { mulberry32, type Random } from '../random.js';
import { isAnswerStep, MAX_THINK_MS, type Scenario, type Step, type ThinkTime } from '../scenario/index.js';

/** The z-score of the 90th percentile of the standard normal distribution. */
const Z90 = 1.2815515655446004;

/** One pause of `think` in ms, drawn with `random` when it is a distribution (capped at MAX_THINK_MS). */
export function sampleThinkMs(think: ThinkTime, random: Random): number {
  switch (think.kind) {
    case 'fixed':
      return think.ms;
    case 'uniform':
      return think.minMs + random() * (think.maxMs - think.minMs);
    case 'lognormal': {
      // ln X ~ N(mu, sigma): the median is e^mu, the p90 e^(mu + Z90 sigma). Box-Muller for the normal.
      const mu = Math.log(think.medianMs);
      const sigma = Math.log(think.p90Ms / think.medianMs) / Z90;
      const u1 = 1 - random();
      const z = Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * random());
      return Math.min(MAX_THINK_MS, Math.exp(mu + sigma * z));
    }
  }
}

/** The pause that applies before `step` (see the module's docs); `firstSay`: no `say` ran before it. */
export function thinkOf(step: Step, scenario: Scenario, firstSay: boolean): ThinkTime | undefined {
  if (step.think) return step.think;
  return isAnswerStep(step) && !firstSay ? scenario.think : undefined;
}

/** The PRNG of one conversation's pauses: seeded with its request's `seq`. */
export function thinkRandom(seq: number): Random {
  // A distinct stream per request: seq scattered by a multiplicative hash (Knuth), not seq itself.
  return mulberry32(Math.imul(seq + 1, 0x9e3779b1));
}

/**
 * Resolves true after `ms` of `clock`'s time (the run's injected clock: a test's clock moves
 * through a pause without waiting), or at once with false when `signal` aborts first.
 */
export function pause(clock: Clock, ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  if (ms <= 0) return Promise.resolve(true);
  return clock.sleep(ms, signal).then(() => !signal?.aborted);
}
