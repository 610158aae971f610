/**
 * Answer webhooks that are not arriving, said early: the service acknowledges an async request
 * within 100 ms (spec: Limits) and posts the answer to the URL in its settings; when that URL is
 * not the receiver's, acknowledgements keep coming and nothing else does, and each answer would
 * wait out its deadline (180 s) before the set-up breaker could say why.
 *
 * From the first acknowledgement of a run against a remote target, the watch sleeps on the
 * run's clock and then reads the receiver. Once anything at all has reached it (an answer, a
 * forwarded message, an intent webhook; accepted or refused: then the wiring rule,
 * wiring-stop.ts, speaks) the watch ends for good. While nothing has:
 *
 * - FIRST_ANSWER_HINT_MS (15 s) after the first acknowledgement, one line through `log` (the
 *   console and a CI log): how many requests were acknowledged, how many answers arrived, and the
 *   URL the service must post to; the run goes on;
 * - with `timeoutMs` (`--first-answer-timeout`), at that time after the first acknowledgement,
 *   `onTimeout` once with the sentence of a DROIDCHECK_ERR_SETUP (exit 2; the engine stops the
 *   run, its partial report is kept).
 *
 * Time is the injected clock's (`clock.sleep`): a test moves the clock, not the wall.
 */
import type { Clock } from '../clock.js';
import type { DeliverySource } from '../receiver/index.js';
import { formatMs } from '../units.js';

/** How long after the first acknowledgement, with nothing delivered, the hint is printed, ms. */
const FIRST_ANSWER_HINT_MS = 15_000;

const ANSWER_SETTING = 'Settings > Integrations, "When AI Answer Ready"';

export interface FirstAnswerOptions {
  receiver: DeliverySource;
  clock: Clock;
  /** The URL the service's answer webhook must point at (or `droidcheck receive` with --deliveries). */
  answerUrl: string;
  /** `--first-answer-timeout`, ms; undefined: only the hint. */
  timeoutMs?: number | undefined;
  /** Where the hint goes (the job's log: stderr, or above the progress display). */
  log?: ((line: string) => void) | undefined;
  /** Called once when `timeoutMs` passed with nothing delivered, with the error's sentence. */
  onTimeout: (sentence: string) => void;
}

/** What an answer wait cut short by the first-answer timeout records as its error (answer-turn.ts). */
export function firstAnswerReason(timeoutMs: number): string {
  return `the run stopped before the webhook arrived: no delivery of any kind within --first-answer-timeout ${formatMs(timeoutMs)} of the first acknowledgement (the DROIDCHECK_ERR_SETUP line says what to fix)`;
}

export interface FirstAnswerWatch {
  /** One more request was acknowledged with a requestId; the first arms the watch. */
  acknowledged(): void;
  /** Ends the watch (the run is over). Idempotent. */
  stop(): void;
}

/** True when no delivery of any kind (answer, forwarded message, intent webhook; accepted or refused) has reached `receiver`. */
export function nothingReceived(receiver: DeliverySource): boolean {
  const inbound = receiver.inboundStats();
  return receiver.stats().received === 0 && inbound.messages.received === 0 && inbound.intents.received === 0;
}

const plural = (n: number, one: string): string => `${n} ${one}${n === 1 ? '' : 's'}`;

/** The facts both sentences state: `12 requests acknowledged, 0 answers arrived in 15 s since ...`. */
function facts(acked: number, waitedMs: number): string {
  return `${plural(acked, 'request')} acknowledged, 0 answers arrived in ${formatMs(waitedMs)} since the first acknowledgement, and nothing else reached droidcheck (no forwarded message, no intent webhook)`;
}

/** Starts the watch (module docs); nothing runs until the first `acknowledged()`. */
export function watchFirstAnswer(o: FirstAnswerOptions): FirstAnswerWatch {
  let acked = 0;
  let armed = false;
  const ended = new AbortController();
  const stop = (): void => ended.abort();
  /** True while the watch should go on: not stopped, and still nothing delivered. */
  const waiting = (): boolean => !ended.signal.aborted && nothingReceived(o.receiver);
  const watch = async (): Promise<void> => {
    const timeoutMs = o.timeoutMs;
    const hint = timeoutMs === undefined || FIRST_ANSWER_HINT_MS < timeoutMs;
    if (hint) {
      await o.clock.sleep(FIRST_ANSWER_HINT_MS, ended.signal);
      if (!waiting()) return stop();
      o.log?.(
        `droidcheck: answer webhooks are not arriving: ${facts(acked, FIRST_ANSWER_HINT_MS)}; the service must post its answers to ${o.answerUrl} (${ANSWER_SETTING}). Still waiting (--timeout); --first-answer-timeout stops sooner`,
      );
    }
    if (timeoutMs === undefined) return stop(); // said once; the deadlines and the set-up breaker take over
    await o.clock.sleep(timeoutMs - (hint ? FIRST_ANSWER_HINT_MS : 0), ended.signal);
    if (!waiting()) return stop();
    stop();
    o.onTimeout(
      `no answer webhook within --first-answer-timeout ${formatMs(timeoutMs)}: ${facts(acked, timeoutMs)}: set the service's answer webhook (${ANSWER_SETTING}) to ${o.answerUrl} and check that it reaches this machine (the tunnel is up); the run stopped`,
    );
  };
  return {
    acknowledged(): void {
      acked += 1;
      if (armed || ended.signal.aborted) return;
      armed = true;
      void watch();
    },
    stop,
  };
}
