export { createReceiver } from './receiver.js';
export type { DeliveredMatch, Receiver, ReceiverOptions, ReceiverStats, WebhookMatch } from './types.js';
export { createSecretCheck, redactSecretParam } from './secret.js';
