export * from './common.js';
export * from './answer.js';
export * from './answer-endpoints.js';
export * from './check.js';
export * from './service.js';
export * from './inbound-webhooks.js';
export * from './contracts.js';
