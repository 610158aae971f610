/**
 * The run-side half of the wiring rule (receiver/wiring.ts): while a run waits for async
 * answers, the receiver is asked every WIRING_POLL_MS whether its answer webhooks can be
 * matched at all. On `miswired` (3 of one kind with none matched: wrong `?secret=`, not an
 * answer payload, another droid's answers) the set-up breaker stops the run with one sentence
 * naming the setting to fix, instead of letting each answer wait out its deadline (180 s). On
 * `working` (one answer matched) the polling ends for good. The sentence never holds what a
 * delivery carried in its URL (a wrong secret is a secret too), only counts and droid ids.
 */
import type { DeliverySource, Receiver, WiringFault } from '../receiver/index.js';
import type { WebhookSetup } from './context.js';

/** How often the receiver's verdict is read while it is `unknown`, ms. */
const WIRING_POLL_MS = 250;

/** Where the service's answer webhook must point, and what the sentence names. */
interface WiringSetup {
  /** The answer webhook URL to configure (or `droidcheck receive` with --deliveries). */
  answer: string;
  /** The run's droid; undefined for the embedded emulator (droidcheck wires it itself). */
  droidId: number | string | undefined;
  /** Deliveries come through `droidcheck receive` (its DROID_WEBHOOK_SECRET checks them). */
  relay: boolean;
}

const ANSWER_SETTING = 'Settings > Integrations, "When AI Answer Ready"';

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** The one sentence of a wiring fault (the SetupError's message; docs/receiver.md, "Wiring mistakes"). */
function wiringSentence(fault: WiringFault, setup: WiringSetup): string {
  const n = fault.deliveries;
  const then = "; the run stopped instead of waiting out each answer's deadline";
  if (fault.kind === 'bad-secret') {
    const where = setup.relay ? "`droidcheck receive`'s DROID_WEBHOOK_SECRET" : 'DROID_WEBHOOK_SECRET';
    return `the receiver refused ${plural(n, 'answer webhook')} for a wrong or missing ?secret= (401) and matched none: set the Webhook Secret of the service's answer webhook (${ANSWER_SETTING}) and ${where} to the same value${then}`;
  }
  if (fault.kind === 'malformed')
    return `${plural(n, 'POST')} to the answer webhook ${setup.answer} ${n === 1 ? 'was' : 'were'} not an answer payload (not a JSON object with a string requestId, or too large: 400/413) and none matched: only the service's answer webhook (${ANSWER_SETTING}) may point at it; the message webhook (Automation Panel) belongs at /messages, an intent's webhook URL at /intents${then}`;
  const others = fault.droidIds.join(', ');
  const droids = `droid${fault.droidIds.length === 1 ? '' : 's'} ${others}`;
  return `${plural(n, 'answer webhook')} of ${droids}, not of droid ${String(setup.droidId)}, reached the receiver and none of this run's matched: the answer webhook of ${droids} points at ${setup.answer}; set droid ${String(setup.droidId)}'s answer webhook (${ANSWER_SETTING}) to it, or run with --droid-id ${fault.droidIds[0] ?? ''}${then}`;
}

/** What an answer wait cut short by a wiring stop records as its error (answer-turn.ts). */
export function wiringReason(fault: WiringFault): string {
  const what =
    fault.kind === 'bad-secret'
      ? 'refused for a wrong or missing ?secret='
      : fault.kind === 'malformed'
        ? 'not answer payloads'
        : `answers of droid ${fault.droidIds.join(', ')}`;
  return `the run stopped before the webhook arrived: the receiver matched no answer webhook (${plural(fault.deliveries, 'delivery', 'deliveries')} ${what}; the DROIDCHECK_ERR_SETUP line says what to fix)`;
}

/**
 * Polls `receiver.wiring()` (unref'd timer) until it says `working`, or `miswired` (then
 * `onFault` once, with the sentence). Returns the function that stops polling.
 */
export function watchWiring(
  receiver: DeliverySource,
  webhooks: WebhookSetup | undefined,
  onFault: (fault: WiringFault, sentence: string) => void,
): () => void {
  const setup: WiringSetup = {
    answer: webhooks?.answer ?? (receiver as Partial<Receiver>).urls?.()?.answer ?? "the receiver's /webhook URL",
    droidId: webhooks?.droidId,
    relay: webhooks?.relay ?? false,
  };
  const query = setup.droidId === undefined ? {} : { droidId: setup.droidId };
  const check = (): void => {
    const verdict = receiver.wiring(query);
    if (verdict.state === 'unknown') return;
    stop();
    if (verdict.state === 'miswired') onFault(verdict.fault, wiringSentence(verdict.fault, setup));
  };
  const timer = setInterval(check, WIRING_POLL_MS);
  timer.unref();
  const stop = (): void => clearInterval(timer);
  return stop;
}
