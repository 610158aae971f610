/**
 * jobs/: a folder per command family. Every command that sends (`run/`, `load/` with capacity,
 * `redteam/`, `webhook-policy/`) is a spec (pipeline/job-spec.ts) given to one pipeline
 * (pipeline/pipeline.ts): selection, preflight, the one target (pipeline/target.ts), the traffic,
 * accounting, redaction, one report document, the same reporters. `doctor/`, `import/`,
 * `receive/`, `reports/` (compare, merge, coverage) and `suites/` (validate, schema) are the others.
 */
export { run } from './run/run.js';
export { redteam } from './redteam/redteam.js';
export { runLoad } from './load/load.js';
export { runCapacity } from './load/capacity.js';
export type { JobIO, JobResult, JobSummary } from './pipeline/job-spec.js';
export { doctor, type DoctorReport } from './doctor/doctor.js';
export { renderDoctorReport } from './doctor/render.js';
export type { DoctorCheck } from './doctor/checks.js';
export { measureRoundTrip } from './pipeline/network.js';
export { startReceive, type ReceiveService } from './receive/receive.js';
export { webhookPolicy } from './webhook-policy/webhook-policy.js';
export {
  derivePolicy,
  findings as webhookPolicyFindings,
  PROBE_PLANS,
  type ProbeState,
} from './webhook-policy/probes.js';
export { coverageGaps, type CoverageGapsOptions, type CoverageGapsResult } from './reports/coverage.js';
