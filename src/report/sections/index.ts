/**
 * The registry: every section of report.json, in the order they are computed, merged and shown.
 * Adding a section is one module (section.ts says what it holds) and one line in SECTIONS.
 *
 * The document's zod schema, and so its TypeScript type ReportDocument, is composed here from
 * the header and every section's fields: the schema is the type (report.schema.json is
 * generated from it by `droidcheck schema --report`).
 */
import { createRequire } from 'node:module';
import { z } from 'zod';
import { REPORT_KINDS, type Section } from '../section.js';
export type { ReportKind } from '../section.js';
import { ms, obj } from './common.js';
import { accuracySection } from './accuracy.js';
import { answersSection } from './answers.js';
import { budgetReportSection } from './budget.js';
import { burstsSection } from './bursts.js';
import { byTurnSection } from './by-turn.js';
import { capacitySection } from './capacity.js';
import { comparisonSection } from './comparison.js';
import { coverageSection } from './coverage.js';
import { judgeSection } from './judge.js';
import { latencySection } from './latency.js';
import { loadSection } from './load.js';
import { networkSection } from './network.js';
import { notesSection } from './notes.js';
import { paritySection } from './parity.js';
import { passRatesSection } from './pass-rates.js';
import { policySection } from './policy.js';
import { receiverSection } from './receiver.js';
import { redteamSection } from './redteam.js';
import { scenariosSection } from './scenarios.js';
import { simulationsSection } from './simulations.js';
import { streamSection } from './stream.js';
import { summarySection } from './summary.js';
import { thresholdsSection } from './thresholds.js';
import { timelineSection } from './timeline.js';
import { webhookPolicySection } from './webhook-policy.js';

/**
 * In order. A section reads the fields of those before it: thresholds are judged on the
 * summary, latency, receiver, policy and coverage; the comparison (last) reads the whole report.
 */
export const SECTIONS = [
  summarySection,
  latencySection,
  byTurnSection,
  networkSection,
  loadSection,
  capacitySection,
  webhookPolicySection,
  timelineSection,
  receiverSection,
  streamSection,
  policySection,
  coverageSection,
  burstsSection,
  thresholdsSection,
  passRatesSection,
  paritySection,
  accuracySection,
  judgeSection,
  budgetReportSection,
  notesSection,
  scenariosSection,
  answersSection,
  simulationsSection,
  redteamSection,
  comparisonSection,
] as const;

/**
 * The report format's major version: written in every report; `compare`, `merge` and
 * `--baseline` refuse a report of another one (read-report.ts). Raise it when a field changes
 * meaning or a required field is added, since older reports would no longer read back.
 */
export const REPORT_VERSION = 1;
/** This droidcheck's version (package.json: one level above src/ and dist/, where this module runs from). */
export const TOOL_VERSION: string = (createRequire(import.meta.url)('../../../package.json') as { version: string })
  .version;

const header = {
  version: z.literal(REPORT_VERSION).describe('the report format (major version)'),
  tool: z.literal('droidcheck'),
  toolVersion: z.string().describe('the droidcheck version that wrote it (compare says when two differ)'),
  kind: z.enum(REPORT_KINDS).describe('the job that wrote it'),
  startedAt: z.string().describe('ISO 8601'),
  finishedAt: z.string().describe('ISO 8601'),
  durationMs: ms,
  settings: z.record(z.string(), z.unknown()).describe('the settings of the job; never a token or secret'),
};
const footer = {
  exitCode: z
    .number()
    .int()
    .describe(
      '130 interrupted; else 99 a threshold breached (capacity: no rate passed); else 1 an expectation or pass-rate requirement failed, judge errors, or a regression against the baseline; else 98 latency thresholds (or the latency rows of the comparison) not judged, the latency figures not trusted (the generator was bound); else 0',
    ),
};

type FieldsOf<S> = S extends Section<infer F> ? F : never;
type Intersect<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;
type SectionFields = Intersect<FieldsOf<(typeof SECTIONS)[number]>>;

const sectionFields = Object.assign({}, ...SECTIONS.map((s) => s.fields)) as SectionFields;

/** The zod schema of report.json (strict: see sections/common.ts). */
export const reportDocumentSchema = obj({ ...header, ...sectionFields, ...footer });
export type ReportDocument = z.output<typeof reportDocumentSchema>;

/** Parses a report.json value; throws a ZodError naming the paths that do not fit. */
export function parseReportDocument(value: unknown): ReportDocument {
  return reportDocumentSchema.parse(value);
}

/** The JSON Schema (draft 2020-12) of report.json. */
export function reportJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(reportDocumentSchema, { io: 'input', unrepresentable: 'any' }),
    title: `droidcheck report (version ${REPORT_VERSION})`,
  };
}
