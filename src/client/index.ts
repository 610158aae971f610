export { DroidClient, DEFAULT_REQUEST_TIMEOUT_MS, DEFAULT_SYNC_TIMEOUT_MS } from './droid-client.js';
export type { CustomerId } from './droid-client.js';
export type {
  AskResponse,
  ChannelsResponse,
  ConversationsResponse,
  CustomerResponse,
  ImageAltResponse,
  MessagesResponse,
  SendResponse,
  SetBotResponse,
} from './endpoint-schemas.js';
export type { CallOptions, ClientResponse, DroidClientOptions } from './types.js';
export { INVALID_HUMAN_MESSAGE, renderSyncRequest } from './sync-message-form.js';
export type { SyncMessageForm, SyncMessageFormOption } from './sync-message-form.js';
export { parseRetryAfter, redact, EXCERPT_CHARS } from './failure.js';
