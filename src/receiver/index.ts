export { createReceiver } from './receiver.js';
export { createRelay } from './relay.js';
export {
  ResponsePlan,
  USUAL,
  STALL,
  status,
  delay,
  type Attempt,
  type PlanStep,
} from './response-plan.js';
export { createStreamReceiver } from './stream-receiver.js';
export type {
  AnswerWaiter,
  ClockSkew,
  DeliverySource,
  InboundStats,
  Receiver,
  ReceiverOptions,
  Relay,
  RelayOptions,
  WebhookCounters,
  ReceiverStats,
  ReceiverUrls,
  WebhookMatch,
} from './types.js';
export type { MessageMatch } from './inbound-types.js';
export { ORPHAN_SUSPECT_MS, WIRING_THRESHOLD, type WiringFault } from './wiring.js';
export { emptyReceiverStats, receiverAccountingGap } from './accounting.js';
export type { StreamReceiver, StreamReceiverOptions } from './stream-receiver.js';
export { redactRedisUrl } from '../redact.js';
