/**
 * jobs/: `run`, `load` and `capacity` through one pipeline (pipeline.ts): config, preflight,
 * target, engine, accounting, redaction, one report document, the same reporters.
 */
export { run, type RunIO, type RunSummary } from './run.js';
export { redteam, parseCategories, parseWeaknesses } from './redteam.js';
export { checkSimulated, openSimulator } from './simulator.js';
export { runLoad, loadSection } from './load.js';
export { runCapacity } from './capacity.js';
export { searchCapacity, judgeStep, P99_MIN_SAMPLES, type CapacityCriteria, type CapacitySearchOptions, type RateMeasurement } from './capacity-search.js';
export { runJob, selectSuites, setupMessage, type JobIO, type JobSummary, type JobContext, type JobOutput } from './pipeline.js';
export { openTarget, type Target, type EmbeddedEmulator, type StreamDeliveries } from './target.js';
export { doctor, type DoctorIO, type DoctorResult } from './doctor.js';
export { renderDoctorReport, checkLines, CHECK_MARKS } from './doctor-render.js';
export type { DoctorCheck, CheckId, CheckStatus } from './doctor-checks.js';
export { cheapChecks, preflight, DEFAULT_MAX_CLOCK_SKEW_MS } from './preflight.js';
export { measureRoundTrip, tcpConnectMs, type NetworkEstimate } from './network.js';
export { startReceive, type ReceiveService } from './receive.js';
export { checkStartAt, sleepUntil, START_AT_AHEAD_MS, START_AT_PAST_MS } from './start-at.js';
export { startJobMetrics, serveMetrics, webhookTotals, type JobMetrics, type ServedMetrics } from './live-metrics.js';
export { webhookPolicy, type WebhookPolicyIO, type WebhookPolicyResult } from './webhook-policy.js';
export { derivePolicy, findings as webhookPolicyFindings, PROBE_PLANS, SLOW_ANSWER_MS, type ProbeState } from './webhook-policy-probes.js';
