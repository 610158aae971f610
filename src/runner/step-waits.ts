/**
 * The waits of a step on the receiver's message-forwarding and intent webhooks
 * (docs/steps.md). All of them wait through the receiver's deadline machinery
 * (`waitForMessage` / `waitForIntent` with a deadline on `ctx.clock`), never a sleep here.
 *
 * - `awaitReply` (`waitForReply`): the first unclaimed forwarded message of the step's customer
 *   that arrived at or after the step's start and whose `type` is one of `from` (default `ai`:
 *   the forwarded copy of the sent message is `human` and never counts). Claiming it means a
 *   later step never sees it again. The reply's latency is the step's start to the receiver's
 *   arrival time, ms (metric `reply`).
 * - `awaitNoReply` (`noReplyWithin`): the same wait; its end at the window's deadline is the
 *   pass. A pass needs evidence that the webhook works: some forwarded message of that customer
 *   (the copy of the sent message: the service forwards "every message", docs
 *   receiving-webhook.mdx) must have arrived since the step's start, else the absence proves
 *   nothing and the step fails saying what to configure.
 * - `awaitIntentWebhook` (`intentWebhook`): an intent webhook that arrived at or after the
 *   step's start, with the intent an `equals` expectation on `intent` names (if any), within
 *   `within` of the droid's answer. The service's `mid` is not documented as the requestId, so
 *   it only decides a preference: a webhook whose `mid` is one of the step's ids (the
 *   requestId, the reply's mid: what the emulator sends) is taken when it arrives within
 *   PREFER_MS of the answer; after that the first unclaimed one that fits is taken.
 *
 * - The message-webhook check (both waits above): the service forwards every message, the
 *   customer's own included, within a second or two (docs receiving-webhook.mdx), so while it is
 *   not known that forwarding reaches this receiver, a wait first runs for `ctx.messageWebhookCheckMs`
 *   (default 15 s) only. When by then not even the copy of the customer's own message arrived,
 *   no reply will: the step fails at once, and so does every later reply wait of the run (per
 *   receiver), with one sentence naming the URL and the verify token to configure, instead of
 *   each waiting out its window (180 s). One forwarded message settles the check for the run.
 *
 * Failures name the fix when nothing reached the receiver at all (no webhook configured, or a
 * wrong verify token / secret). Never throws for the target's behaviour.
 */
import { JOB_DEFAULTS } from '../defaults.js';
import type { ContractCheck, IntentWebhookRequest, MessageForwarding } from '../contract/index.js';
import type { DeliverySource, MessageMatch, Receiver } from '../receiver/index.js';
import type { ExpectationFailure, ReplyWait, SourceLocation } from '../scenario/index.js';
import { formatMs } from '../units.js';
import type { ExecuteContext } from './context.js';

/** How long a webhook whose `mid` is the step's own is preferred over any other that fits, ms. */
const PREFER_MS = 1_000;

/** The end of a wait: the delivery (or null), when it arrived, and whether the run was interrupted. */
export interface WaitEnd<T> {
  payload: T | null;
  /** clock ms when the receiver accepted it. */
  receivedAt?: number;
  /** The delivery's violations of the documented shape (receiver's contract check). */
  contract?: ContractCheck<unknown>;
  interrupted: boolean;
}

/** A wait that ended without what it waited for, and its failed expectation. */
type Failed = WaitEnd<never> & { failure: ExpectationFailure };

function failed(
  path: string,
  matcher: string,
  expected: unknown,
  actual: unknown,
  message: string,
  location: SourceLocation,
): Failed {
  return { payload: null, interrupted: false, failure: { path, matcher, expected, actual, message, location } };
}

/** The failure of a wait in a run without a receiver (`--ack-only` jobs, or none was opened). */
function withoutReceiver(path: string, matcher: string, expected: unknown, location: SourceLocation): Failed {
  return failed(
    path,
    matcher,
    expected,
    undefined,
    `${matcher} needs the webhook receiver (this run has none)`,
    location,
  );
}

const INTERRUPTED = { payload: null, interrupted: true } as const;

function receiverUrl(receiver: DeliverySource, route: 'messages' | 'intents'): string {
  const urls = (receiver as Partial<Receiver>).urls?.();
  const local = urls?.[route];
  return local
    ? `the receiver's /${route} URL (here ${local}; behind a tunnel, the public URL with /${route})`
    : `the receiver's /${route} URL`;
}

/** Why no message reached the receiver, when the route shows it (no webhook configured, wrong token); '' otherwise. */
function messageRouteHint(receiver: DeliverySource, customerId: string | number, after: number): string {
  if (receiver.messagesOf(customerId).some((m) => m.receivedAt >= after)) return '';
  const stats = receiver.inboundStats().messages;
  if (stats.badSecret > 0 && stats.accepted === 0) {
    return `; the receiver refused ${stats.badSecret} forwarded message(s) for a wrong verify_token: set the service's Verify Token (dashboard, Automation Panel) to the value of DROID_VERIFY_TOKEN`;
  }
  return `; no forwarded message of customer ${customerId} reached the receiver, not even the copy of the message sent: configure the service's message webhook (dashboard, Automation Panel): Webhook URL = ${receiverUrl(receiver, 'messages')}, Verify Token = the value of DROID_VERIFY_TOKEN`;
}

/** What the run knows of message forwarding to a receiver: proven (`ok`), or the sentence of its absence. */
interface ForwardingState {
  ok: boolean;
  absent: string | undefined;
}

const forwarding = new WeakMap<DeliverySource, ForwardingState>();

function forwardingOf(receiver: DeliverySource): ForwardingState {
  let state = forwarding.get(receiver);
  if (!state) forwarding.set(receiver, (state = { ok: false, absent: undefined }));
  return state;
}

/** The one sentence of a message webhook that delivered nothing within `waitedMs` of the send. */
function noForwarding(
  receiver: DeliverySource,
  ctx: ExecuteContext,
  customerId: string | number,
  waitedMs: number,
): string {
  const url = ctx.webhooks?.messages ?? receiverUrl(receiver, 'messages');
  const refused = receiver.inboundStats().messages.badSecret;
  const then = "until then every step that waits for the bot's reply fails at once";
  if (refused > 0)
    return `no message webhook delivery accepted in ${formatMs(waitedMs)}: the receiver refused ${refused} forwarded message(s) for a wrong verify_token: set the service's Verify Token (the Automation Panel's message webhook) to the value of DROID_VERIFY_TOKEN; ${then}`;
  return `no message webhook delivery in ${formatMs(waitedMs)}, not even the copy of customer ${customerId}'s own message: configure the Automation Panel's message webhook as ${url} with the verify token (the value of DROID_VERIFY_TOKEN); ${then}`;
}

/**
 * Waits for a message of `wait.from` from the step's customer until the step's window ends,
 * through the message-webhook check (module docs): `{ absent }` when forwarding is known (or now
 * found) not to reach the receiver.
 */
async function waitForwarded(
  receiver: DeliverySource,
  wait: ReplyWait,
  customerId: string | number,
  stepStart: number,
  ctx: ExecuteContext,
): Promise<{ match: MessageMatch } | { absent: string }> {
  const state = forwardingOf(receiver);
  if (state.absent !== undefined) return { absent: state.absent };
  const query = { customerId, after: stepStart, match: senders(wait) };
  const deadline = stepStart + wait.withinMs;
  if (state.ok) return { match: await receiver.waitForMessage(query, deadline, ctx.abortSignal) };
  const checkEnd = Math.min(deadline, stepStart + (ctx.messageWebhookCheckMs ?? JOB_DEFAULTS.messageWebhookCheckMs));
  const first = await receiver.waitForMessage(query, checkEnd, ctx.abortSignal);
  if (first.kind === 'message') state.ok = true;
  if (first.kind === 'message' || ctx.abortSignal?.aborted) return { match: first };
  if (receiver.messagesOf(customerId).some((m) => m.receivedAt >= stepStart)) state.ok = true;
  // Another step may have proven forwarding meanwhile: then this one waits out its window.
  if (!state.ok) return { absent: (state.absent ??= noForwarding(receiver, ctx, customerId, checkEnd - stepStart)) };
  if (checkEnd >= deadline) return { match: first };
  return { match: await receiver.waitForMessage(query, deadline, ctx.abortSignal) };
}

function senders(wait: ReplyWait): (m: MessageForwarding) => boolean {
  const from = new Set<string>(wait.from);
  return (m) => typeof m.type === 'string' && from.has(m.type);
}

function excerpt(m: MessageForwarding): string {
  const v = (m.content as { value?: unknown } | undefined)?.value;
  const text = Array.isArray(v) ? v.join(' | ') : typeof v === 'string' ? v : JSON.stringify(v);
  const one = (text ?? '').replace(/\s+/g, ' ').trim();
  return one.length > 80 ? `${one.slice(0, 79)}…` : one;
}

/** A wait of a `send` step on the message webhook, from `stepStart` (clock ms) for the step's customer. */
type ReplyWaiter = (
  wait: ReplyWait,
  customerId: string | number,
  stepStart: number,
  ctx: ExecuteContext,
) => Promise<WaitEnd<MessageForwarding> & { failure?: ExpectationFailure }>;

/** Waits for the bot's reply to a `send` (see module docs); `failure` when none came in time. */
export const awaitReply: ReplyWaiter = async (wait, customerId, stepStart, ctx) => {
  const { receiver } = ctx;
  const from = wait.from.join('|');
  if (!receiver) return withoutReceiver('reply', 'waitForReply', `a reply of type ${from}`, wait.location);
  const expected = `a reply of type ${from} within ${formatMs(wait.withinMs)}`;
  const waited = await waitForwarded(receiver, wait, customerId, stepStart, ctx);
  if ('absent' in waited) return failed('reply', 'waitForReply', expected, null, waited.absent, wait.location);
  const match = waited.match;
  if (match.kind === 'message')
    return { payload: match.payload, receivedAt: match.receivedAt, contract: match.contract, interrupted: false };
  if (ctx.abortSignal?.aborted) return INTERRUPTED;
  const hint =
    messageRouteHint(receiver, customerId, stepStart) ||
    `; messages of customer ${customerId} do reach the receiver, so the message webhook works: is the bot on for this customer?`;
  const message = `no reply (type ${from}) within ${formatMs(wait.withinMs)}${hint}`;
  return failed('reply', 'waitForReply', expected, null, message, wait.location);
};

/** Waits out `noReplyWithin` (see module docs); `failure` when a reply came, or when nothing shows the webhook works. */
export const awaitNoReply: ReplyWaiter = async (wait, customerId, stepStart, ctx) => {
  const { receiver } = ctx;
  const from = wait.from.join('|');
  const expected = `no reply of type ${from} within ${formatMs(wait.withinMs)}`;
  if (!receiver) return withoutReceiver('reply', 'noReplyWithin', expected, wait.location);
  const waited = await waitForwarded(receiver, wait, customerId, stepStart, ctx);
  if ('absent' in waited)
    return failed(
      'reply',
      'noReplyWithin',
      expected,
      undefined,
      `cannot show that no reply came: ${waited.absent}`,
      wait.location,
    );
  const match = waited.match;
  if (match.kind === 'message') {
    const after = formatMs(match.receivedAt - stepStart);
    const message = `expected no reply within ${formatMs(wait.withinMs)}, got a reply of type ${match.payload.type} after ${after}: "${excerpt(match.payload)}"`;
    return {
      payload: match.payload,
      receivedAt: match.receivedAt,
      contract: match.contract,
      interrupted: false,
      failure: failed('reply', 'noReplyWithin', expected, match.payload, message, wait.location).failure,
    };
  }
  if (ctx.abortSignal?.aborted) return INTERRUPTED;
  const hint = messageRouteHint(receiver, customerId, stepStart);
  if (hint === '') return { payload: null, interrupted: false };
  const message = `cannot show that no reply came within ${formatMs(wait.withinMs)}${hint}`;
  return failed('reply', 'noReplyWithin', expected, undefined, message, wait.location);
};

/** What an intent-webhook wait looks for. */
export interface IntentLookup {
  /** The intent name to wait for (from an `equals` expectation on `intent`), if any. */
  intent: string | undefined;
  /** The step's ids a `mid` is preferred for (requestId, the reply's mid). */
  preferMids: string[];
  /** Arrivals count from here (the step's start), clock ms. */
  after: number;
  /** When the droid answered (the answer, or the reply, arrived), clock ms. */
  answeredAt: number;
  withinMs: number;
  location: SourceLocation;
}

/** Waits for the intent webhook of a step (see module docs); `failure` when none came in time. */
export async function awaitIntentWebhook(
  lookup: IntentLookup,
  ctx: ExecuteContext,
): Promise<WaitEnd<IntentWebhookRequest> & { failure?: ExpectationFailure }> {
  const receiver = ctx.receiver;
  const what = lookup.intent === undefined ? 'an intent webhook' : `an intent webhook for "${lookup.intent}"`;
  if (!receiver) return withoutReceiver('intentWebhook', 'intentWebhook', what, lookup.location);
  const deadline = lookup.answeredAt + lookup.withinMs;
  const base = { after: lookup.after, ...(lookup.intent !== undefined && { intent: lookup.intent }) };
  const mids = new Set(lookup.preferMids);
  let match =
    mids.size === 0
      ? undefined
      : await receiver.waitForIntent(
          { ...base, match: (p) => mids.has(p.mid) },
          Math.min(deadline, lookup.answeredAt + PREFER_MS),
          ctx.abortSignal,
        );
  if (match?.kind !== 'intent' && !ctx.abortSignal?.aborted)
    match = await receiver.waitForIntent(base, deadline, ctx.abortSignal);
  if (match?.kind === 'intent')
    return { payload: match.payload, receivedAt: match.receivedAt, contract: match.contract, interrupted: false };
  if (ctx.abortSignal?.aborted) return INTERRUPTED;
  const stats = receiver.inboundStats().intents;
  const hint =
    stats.accepted > 0
      ? ''
      : stats.badSecret > 0
        ? `; the receiver refused ${stats.badSecret} intent webhook(s) for a wrong secret: set the intent's API Secret Key to the value of DROID_INTENT_SECRET`
        : `; no intent webhook reached the receiver in this run: in the droid's intent settings give the intent a webhook URL = ${receiverUrl(receiver, 'intents')} and API Secret Key = the value of DROID_INTENT_SECRET`;
  const message = `no ${what.slice(3)} within ${formatMs(lookup.withinMs)} of the answer${hint}`;
  return failed(
    'intentWebhook',
    'intentWebhook',
    `${what} within ${formatMs(lookup.withinMs)}`,
    null,
    message,
    lookup.location,
  );
}
