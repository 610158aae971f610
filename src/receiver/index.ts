export { createReceiver } from './receiver.js';
export { createRelay } from './relay.js';
export { ResponsePlan, withResponsePlan, USUAL, STALL, status, delay, type Attempt, type PlanStep, type ResponsePlanOptions } from './response-plan.js';
export { DROP, type Delivery, type DeliverySink, type Reply } from './delivery.js';
export { createStreamReceiver } from './stream-receiver.js';
export type {
  ClockSkew,
  CorrelationOptions,
  DeliveredMatch,
  DeliverySource,
  InboundStats,
  InboxBounds,
  PublishOptions,
  Receiver,
  ReceiverOptions,
  Relay,
  RelayOptions,
  WebhookCounters,
  WebhookListener,
  WebhookServerOptions,
  ReceiverSkew,
  ReceiverStats,
  ReceiverUrls,
  WebhookMatch,
} from './types.js';
export type {
  InboundIntent,
  InboundMessage,
  InboundRouteStats,
  IntentMatch,
  IntentWait,
  MessageMatch,
  MessageWait,
  PayloadFilter,
} from './inbound-types.js';
export { emptyInboundStats } from './inbound-types.js';
export { emptyInboundRouteStats, emptyReceiverStats, receiverAccountingGap } from './accounting.js';
export type { StreamReceiver, StreamReceiverOptions } from './stream-receiver.js';
export { ENTRY_VERSION, type StreamEntry } from './stream-entry.js';
export { createSecretCheck, redactSecretParam } from './secret.js';
export { redactRedisUrl } from '../redact.js';
