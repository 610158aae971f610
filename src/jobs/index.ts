/**
 * jobs/: every command that sends (`run`, `load`, `capacity`, `redteam`, `webhook-policy`) is a
 * spec (job-spec.ts) given to one pipeline (pipeline.ts): selection, preflight, the one target
 * (target.ts), the traffic, accounting, redaction, one report document, the same reporters.
 */
export { run } from './run.js';
export { redteam } from './redteam.js';
export { runLoad } from './load.js';
export { runCapacity } from './capacity.js';
export type { JobIO, JobSummary } from './job-spec.js';
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
