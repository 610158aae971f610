/**
 * createRelay: the receiver as a relay for shards on other machines (`droidcheck receive`). The
 * webhook server (webhook-server.ts) feeding the stream publisher (stream-publisher.ts): every
 * delivery it accepts, and every one it refuses for its secret, is XADDed to a Redis Stream
 * (format: stream-entry.ts) before it is answered, so a relay that dies loses nothing it
 * acknowledged; when Redis fails the delivery gets 503 (the service retries). Nothing is
 * correlated here: shards read the stream (createStreamReceiver). It holds no state another relay
 * needs: several may publish to one stream behind one URL.
 *
 * Redis is connected (and the clock skew measured) when the app gets ready (listen() or the first
 * inject()); an unreachable Redis throws ConfigError (DROIDCHECK_ERR_CONFIG). close() stops
 * accepting, lets every request in flight finish its XADD and its answer, then quits Redis:
 * nothing is acknowledged and unpublished. `GET /healthz` answers 503 while Redis does not
 * answer PING. Secrets and tokens never appear in a reply, an error, a log line or a stream entry.
 */
import { systemClock } from '../clock.js';
import { withResponsePlan } from './response-plan.js';
import { createStreamPublisher } from './stream-publisher.js';
import type { Relay, RelayOptions } from './types.js';
import { createWebhookServer } from './webhook-server.js';

/** Builds the relay (not listening). Options and defaults: see RelayOptions. */
export function createRelay(options: RelayOptions): Relay {
  const clock = options.clock ?? systemClock;
  const publisher = createStreamPublisher(options.publish, clock);
  const sink = options.responsePlan ? withResponsePlan(publisher, options.responsePlan) : publisher;
  const server = createWebhookServer(options, clock, sink);
  return {
    app: server.app,
    listen: () => server.listen(),
    urls: () => server.urls(),
    stats: () => server.stats(),
    inboundStats: () => server.inboundStats(),
    parkedCount: () => 0,
    clockSkew: () => publisher.skew(),
    close: () => server.close(),
  };
}
