export { DroidClient } from './droid-client.js';
export type { ClientResponse, DroidClientOptions, TraceHeaders } from './types.js';
export type { SyncMessageForm } from './sync-message-form.js';
