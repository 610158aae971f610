/**
 * emulator/: the whole service (spec: the whole document) for droidcheck runs and tests:
 * `createEmulator(options)` (create-emulator.ts), `startEmulatorStandalone` (droidcheck
 * emulate), `startEmulatorWorker` (its own thread), the rule-based AI, fault and emulator
 * profiles. docs/service-reference.md describes the behaviour.
 */
export type { EmulatorOptions, DeliveryOptions, RateLimitOptions, EmulatorClock, IntentWebhookOverride } from './options.js';
export type { EmulatorStats } from './stats.js';
export type { DeliveryKind, DeliveryLogEntry, DeliveryLogQuery } from './delivery-log.js';
export {
  analyseAnswer,
  generateAnswer,
  aiMessage,
  DEFAULT_CATALOGUE,
  DEFAULT_INTENTS,
  DETECTORS,
  LANGUAGE_NAMES,
  USER_INTENT_SENTENCES,
  formatAmount,
  formatMoney,
  extractAddress,
  extractContact,
  detectLanguage,
  detectIntents,
  detectPaymentMethod,
  resolveIntents,
} from './ai/index.js';
export type { AnswerBody, AnswerFacts, AnswerInput, Catalogue, CatalogueProduct, Detector, IntentDefinition, IntentWebhookConfig } from './ai/index.js';
export type { InjectedMessage } from './control.js';
export { parseFaultProfile, parseFaultProfileFile, FaultProfileError, ENDPOINT_NAMES } from './faults/profile.js';
export type { FaultProfile, FaultProfileInput, EndpointName, DelayDistribution } from './faults/profile.js';
export { loadProfile, parseProfile, parseYamlFile, DEFAULT_PROFILE_PATH } from './profile/load.js';
export { resolveEmulatorProfile } from './profile/resolve.js';
export { emulatorProfileSchema } from './profile/schema.js';
export type { EmulatorProfile, EmulatorProfileInput } from './profile/schema.js';
export { ACK_MESSAGE } from './routes/answer.js';
export {
  MSG_INVALID_API_KEY,
  MSG_INVALID_HUMAN_MESSAGE,
  MSG_MISSING_TEST_CUSTOMER,
  MSG_WEBHOOK_NOT_CONFIGURED,
} from './http-errors.js';
export { startEmulatorStandalone } from './standalone.js';
export { startEmulatorWorker } from './worker-host.js';
export type { EmulatorWorker } from './worker-host.js';
export type { StandaloneEmulator, StandaloneOptions } from './standalone.js';
export { createEmulator, type Emulator } from './create-emulator.js';
export { WEAKNESSES, emulatorInstructions, type Weakness } from './ai/weaknesses.js';

