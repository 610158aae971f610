/**
 * zod schema of the ReportDocument (report.json, version 1) and its JSON Schema, for tools
 * that read reports (CI gates, dashboards) and for `mergeReports`/`compareReports` inputs.
 */
import { z } from 'zod';
import type { ReportDocument } from './report-document.js';
import { accuracySchema, comparisonSchema, paritySchema, passRatesSchema } from './report-sections-schema.js';
import { OUTCOMES } from './run-types.js';

const ms = z.number().nonnegative().describe('milliseconds');

export const sourceLocationSchema = z.object({ file: z.string(), line: z.number().int(), col: z.number().int() });

export const expectationFailureSchema = z.object({
  path: z.string(),
  matcher: z.string(),
  expected: z.unknown(),
  actual: z.unknown(),
  message: z.string(),
  location: sourceLocationSchema,
});

export const contractViolationSchema = z.object({
  endpoint: z.string(),
  path: z.string(),
  message: z.string(),
  value: z.unknown().optional(),
});

export const latencyEntrySchema = z.object({
  count: z.number().int().nonnegative(),
  p50: ms,
  p90: ms,
  p99: ms,
  p999: ms,
  max: ms,
  min: ms,
  mean: ms,
  limitMs: ms,
  withinLimit: z.boolean(),
});

const perMetric = <T extends z.ZodType>(schema: T) => z.object({ ack: schema, answer: schema, sync: schema });
const outcomeEnum = z.enum(OUTCOMES);
const count = z.number().int().nonnegative();

export const scenarioEntrySchema = z.object({
  suite: z.string(),
  name: z.string(),
  file: z.string(),
  mode: z.enum(['sync', 'async']),
  outcome: outcomeEnum,
  passed: z.boolean(),
  requestId: z.string().optional(),
  latencyMs: ms.optional(),
  retries: z.number().int().positive().optional().describe('submit retries (--retries); absent when none'),
  failures: z.array(expectationFailureSchema),
  contractViolations: z.array(contractViolationSchema),
  error: z.object({ code: z.string(), message: z.string() }).optional(),
});

export const reportDocumentSchema = z.object({
  version: z.literal(1),
  tool: z.literal('droidcheck'),
  startedAt: z.string().describe('ISO 8601'),
  finishedAt: z.string().describe('ISO 8601'),
  durationMs: ms,
  settings: z.record(z.string(), z.unknown()).describe('run settings; never a token or secret'),
  summary: z.object({
    requests: count,
    outcomes: z.object(Object.fromEntries(OUTCOMES.map((o) => [o, count])) as Record<(typeof OUTCOMES)[number], typeof count>),
    scenarios: count,
    passed: count,
    failed: count,
    passRate: z.number().min(0).max(1),
    retries: count.default(0).describe('submit retries (--retries) over all records; 0 when absent (older reports)'),
  }),
  latency: perMetric(latencyEntrySchema),
  histograms: perMetric(z.string().describe('HDR histogram, compressed base64, values in microseconds')),
  receiver: z.object({
    received: count,
    matched: count,
    duplicates: count,
    late: count,
    orphans: count,
    foreign: count.default(0).describe("stream mode: another shard's deliveries; 0 when absent (older reports)"),
    badSecret: count,
    malformed: count,
    published: count.default(0).describe('publish mode: deliveries written to the Redis Stream; 0 when absent'),
    unavailable: count.default(0).describe('publish mode: deliveries answered 503 (Redis failed); 0 when absent'),
  }),
  thresholds: z.array(z.object({ expression: z.string(), metric: z.string(), actual: z.number(), passed: z.boolean() })),
  scenarios: z.array(scenarioEntrySchema),
  passRates: passRatesSchema.optional(),
  parity: paritySchema.optional(),
  accuracy: accuracySchema.optional(),
  comparison: comparisonSchema.optional(),
  exitCode: z.number().int(),
});

// Both directions must hold: the schema describes exactly the TypeScript type.
type Parsed = z.output<typeof reportDocumentSchema>;
const _toSchema = (r: ReportDocument): z.input<typeof reportDocumentSchema> => r;
const _fromSchema = (r: Parsed): ReportDocument => r;
void _toSchema;
void _fromSchema;

/** Parses a report.json value; throws a ZodError naming the paths that do not fit. */
export function parseReportDocument(value: unknown): ReportDocument {
  return reportDocumentSchema.parse(value);
}

/** The JSON Schema (draft 2020-12) of report.json. */
export function reportJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(reportDocumentSchema, { io: 'input', unrepresentable: 'any' }),
    title: 'droidcheck report (version 1)',
  };
}
