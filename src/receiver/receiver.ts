/**
 * createReceiver: the receiver of a run. The webhook server (webhook-server.ts) feeding the local
 * sink (local-sink.ts): answer webhooks correlated by requestId, forwarded messages and intent
 * webhooks kept for their waiters; optionally a response plan in front (response-plan.ts).
 * The relay that publishes to a Redis Stream instead is createRelay (relay.ts).
 */
import { systemClock } from '../clock.js';
import { LocalSink } from './local-sink.js';
import { withResponsePlan } from './response-plan.js';
import type { Receiver, ReceiverOptions } from './types.js';
import { createWebhookServer } from './webhook-server.js';
import { judgeWiring, ORPHAN_SUSPECT_MS, staleOfOtherDroids } from './wiring.js';

/** Builds the receiver (not listening). Options and defaults: see ReceiverOptions. */
export function createReceiver(options: ReceiverOptions = {}): Receiver {
  const clock = options.clock ?? systemClock;
  const local = new LocalSink(clock, options);
  const sink = options.responsePlan ? withResponsePlan(local, options.responsePlan) : local;
  const server = createWebhookServer(options, clock, sink);
  const { correlator, inbound } = local;
  return {
    app: server.app,
    listen: () => server.listen(),
    urls: () => server.urls(),
    waitFor: (requestId, deadline, signal) => correlator.waitFor(requestId, deadline, signal),
    expectAnswer: (requestId, deadline, waiter, signal) => correlator.expect(requestId, deadline, waiter, signal),
    waitForMessage: (wait, deadline, signal) => inbound.waitForMessage(wait, deadline, signal),
    waitForIntent: (wait, deadline, signal) => inbound.waitForIntent(wait, deadline, signal),
    messagesOf: (customerId) => inbound.messagesOf(customerId),
    stats: () => server.stats(),
    inboundStats: () => server.inboundStats(),
    pendingCount: () => correlator.pending,
    onDuplicate: (listener) => {
      correlator.onDuplicate = listener;
    },
    wiring: ({ now = clock.now(), droidId } = {}) =>
      judgeWiring(server.stats(), (limit) =>
        staleOfOtherDroids(correlator.parkedBodies(), now - ORPHAN_SUSPECT_MS, droidId, limit),
      ),
    parkedCount: () => correlator.parked,
    housekeep: (now) => local.housekeep(now),
    clockSkew: () => undefined,
    close: () => server.close(),
  };
}
