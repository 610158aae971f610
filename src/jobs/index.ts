/**
 * jobs/: `run`, `load` and `capacity` through one pipeline (pipeline.ts): config, preflight,
 * target, engine, accounting, redaction, one report document, the same reporters.
 */
export { run } from './run.js';
export { redteam } from './redteam.js';
export { runLoad } from './load.js';
export { runCapacity } from './capacity.js';
export type {
  JobIO,
  JobSummary,
} from './pipeline.js';
export { doctor, type DoctorIO, type DoctorResult } from './doctor.js';
export { renderDoctorReport } from './doctor-render.js';
export type { DoctorCheck } from './doctor-checks.js';
export { measureRoundTrip } from './network.js';
export { startReceive, type ReceiveService } from './receive.js';
export { webhookPolicy, type WebhookPolicyIO, type WebhookPolicyResult } from './webhook-policy.js';
export {
  derivePolicy,
  findings as webhookPolicyFindings,
  PROBE_PLANS,
  type ProbeState,
} from './webhook-policy-probes.js';
