/**
 * emulator/: the whole service (spec: the whole document) for droidcheck runs and tests:
 * `createEmulator(options)` (create-emulator.ts), `startEmulatorStandalone` (droidcheck
 * emulate), the rule-based AI, fault and emulator profiles. docs/service-reference.md describes
 * the behaviour. `startEmulatorWorker` (its own thread) is imported from worker-host.ts itself:
 * the process that starts the thread loads none of the emulator's app (jobs/pipeline/target.ts).
 */
export type { EmulatorOptions } from './options.js';
export type { EmulatorStats } from './stats.js';
// The rule-based AI's parts (money, address, contact, language) are the emulator's own: tests
// import them from ai/; the answer is what the bench and the import tests need.
export { generateAnswer } from './ai/index.js';
export { parseFaultProfile, parseFaultProfileFile, FaultProfileError } from './faults/profile.js';
export type { FaultProfileInput } from './faults/profile.js';
export { loadProfile, parseProfile, DEFAULT_PROFILE_PATH } from './profile/load.js';
export { resolveEmulatorProfile } from './profile/resolve.js';
export type { EmulatorProfile } from './profile/schema.js';
export { ACK_MESSAGE } from './routes/answer.js';
export { MSG_WEBHOOK_NOT_CONFIGURED } from './http-errors.js';
export { startEmulatorStandalone } from './standalone.js';
export type { StandaloneEmulator, StandaloneOptions } from './standalone.js';
export { createEmulator, type Emulator } from './create-emulator.js';
export { WEAKNESSES, emulatorInstructions, type Weakness } from './ai/weaknesses.js';
export type { AnswerTrace, DeliveryTrace, EmulatorTracer, IncomingTrace } from './tracing.js';
export type { WorkerTracing } from './worker-host.js';
