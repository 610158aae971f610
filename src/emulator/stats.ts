/**
 * Counters of what the emulator did (GET /__emulator/stats and `emulator.stats()`).
 */

export interface EmulatorStats {
  /** Async requests acknowledged with success=true. */
  accepted: number;
  /** Requests answered with an HTTP error by the emulator's own checks (400/401/403/429). */
  rejected: number;
  /** Sync answers returned. */
  syncAnswered: number;
  /** Answers degraded past the planted knee (`degradeAbove`), sync and async. */
  degradedAnswers: number;
  /** Webhook deliveries that got a 2xx (a duplicate copy counts again). */
  delivered: number;
  /** HTTP attempts made, retries included. */
  deliveryAttempts: number;
  /** Attempts that failed (non-2xx, timeout, network error). */
  attemptFailures: number;
  /** Deliveries that gave up after every attempt failed. */
  deliveryFailures: number;
  /** Retries scheduled. */
  retries: number;
  /** Deliveries not sent at all (fault: drop). */
  dropped: number;
  /** Extra copies sent (fault: duplicate). */
  duplicated: number;
  /** Deliveries held back (fault: late). */
  late: number;
  /** Error payloads sent instead of answers (fault: error payload). */
  errorPayloads: number;
  /** Deliveries sent with a wrong or missing secret (fault). */
  badSecret: number;
  /** Responses replaced by an injected fault (5xx, 429, reset, hang). */
  injectedFaults: number;
  /** Deliveries queued or in flight now. */
  pending: number;
  /** Messages stored (send, the bot's replies, injected admin/system messages). */
  messagesStored: number;
  /** Message-forwarding deliveries started (docs receiving-webhook.mdx). */
  messagesForwarded: number;
  /** Bot replies to `send` stored (after the answer delay). */
  botReplies: number;
  /** Intent-webhook deliveries started (docs intent-webhook.mdx). */
  intentWebhooks: number;
  /** Timers waiting now (answers, bot replies, retry backoffs, late deliveries, delays); 0 after close(). */
  scheduled: number;
}

export function emptyStats(): EmulatorStats {
  return {
    accepted: 0,
    rejected: 0,
    syncAnswered: 0,
    degradedAnswers: 0,
    delivered: 0,
    deliveryAttempts: 0,
    attemptFailures: 0,
    deliveryFailures: 0,
    retries: 0,
    dropped: 0,
    duplicated: 0,
    late: 0,
    errorPayloads: 0,
    badSecret: 0,
    injectedFaults: 0,
    pending: 0,
    messagesStored: 0,
    messagesForwarded: 0,
    botReplies: 0,
    intentWebhooks: 0,
    scheduled: 0,
  };
}
