/**
 * zod schema of the ReportDocument (report.json, version 1) and its JSON Schema, for tools
 * that read reports (CI gates, dashboards) and for `mergeReports`/`compareReports` inputs.
 */
import { z } from 'zod';
import { LIMITS_MS } from '../metrics/index.js';
import type { ReportDocument } from './report-document.js';
import { accuracySchema, comparisonSchema, paritySchema, passRatesSchema, thresholdResultSchema } from './report-sections-schema.js';
import { zeroOutcomes } from '../outcomes.js';
import { OUTCOMES } from './run-types.js';

const ms = z.number().nonnegative().describe('milliseconds');
const NEWER_OUTCOMES: ReadonlySet<string> = new Set(['invalid-response', 'not-sent']);

export const sourceLocationSchema = z.object({ file: z.string(), line: z.number().int(), col: z.number().int() });

export const expectationFailureSchema = z.object({
  path: z.string(),
  matcher: z.string(),
  expected: z.unknown(),
  // Absent when the path held nothing (JSON drops undefined).
  actual: z.unknown().optional(),
  message: z.string(),
  location: sourceLocationSchema,
  score: z.number().optional().describe('similar/judge: 0..1'),
  reason: z.string().optional().describe("judge: the judge's reason"),
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
  limitStat: z.enum(['p99', 'max']).optional(),
  limitVerdict: z.enum(['ok', 'breach', 'too-few-samples', 'no-samples']).optional(),
  withinLimit: z.boolean(),
  judgedOn: z.literal('ackServer').optional().describe("ack of a remote target: its limit is judged on ackServer (ack minus the network round trip); the verdict is ackServer's"),
});

export const networkSchema = z
  .object({
    rttMs: ms.describe('network round trip: the fastest TCP connect to the target, milliseconds'),
    samples: z.number().int().positive().describe('TCP connects measured'),
    method: z.literal('tcp-connect'),
  })
  .describe('remote targets only: the round trip ackServer (ack minus it) is judged on');

/** ack, answer and sync are in every report; reply and ackServer (newer metrics) default to empty. */
const perMetric = <T extends z.ZodType>(schema: T, empty: (m: 'reply' | 'ackServer') => z.output<T>) =>
  z
    .object({ ack: schema, answer: schema, sync: schema, reply: schema.optional(), ackServer: schema.optional() })
    .transform((o) => ({ ...o, reply: o.reply ?? empty('reply'), ackServer: o.ackServer ?? empty('ackServer') }));
const emptyEntry = (m: 'reply' | 'ackServer'): z.output<typeof latencyEntrySchema> => ({ count: 0, p50: 0, p90: 0, p99: 0, p999: 0, max: 0, min: 0, mean: 0, limitMs: LIMITS_MS[m], withinLimit: true });
const outcomeEnum = z.enum(OUTCOMES);
const count = z.number().int().nonnegative();

const recordErrorSchema = z.object({ code: z.string(), message: z.string(), excerpt: z.string().optional(), cause: z.string().optional() });

export const scenarioEntrySchema = z.object({
  suite: z.string(),
  name: z.string(),
  file: z.string(),
  mode: z.enum(['sync', 'async']),
  repeat: z.number().int().nonnegative().optional(),
  outcome: outcomeEnum,
  passed: z.boolean(),
  requestId: z.string().optional(),
  latencyMs: ms.optional(),
  retries: z.number().int().positive().optional().describe('submit retries (--retries); absent when none'),
  failures: z.array(expectationFailureSchema),
  contractViolations: z.array(contractViolationSchema),
  error: recordErrorSchema.optional(),
  judgeErrors: z.array(z.object({ path: z.string(), matcher: z.string(), code: z.string(), message: z.string(), location: sourceLocationSchema })).optional(),
  grades: z
    .array(z.object({ path: z.string(), matcher: z.string(), score: z.number(), pass: z.boolean(), reason: z.string().optional(), cached: z.boolean(), calls: count, location: sourceLocationSchema }))
    .optional(),
  answerText: z.string().optional().describe('failed entries: the answer text, at most 2,000 characters'),
  failedStep: z.object({ index: count, kind: z.string(), endpoint: z.string() }).optional(),
});

const tallySchema = z.object({
  suite: z.string(),
  name: z.string(),
  file: z.string(),
  mode: z.enum(['sync', 'async']),
  requests: count,
  passed: count,
  failed: count,
  outcomes: z.object(Object.fromEntries(OUTCOMES.map((o) => [o, count])) as Record<(typeof OUTCOMES)[number], typeof count>),
  examples: z.array(
    z.object({
      seq: count,
      outcome: outcomeEnum,
      requestId: z.string().optional(),
      error: recordErrorSchema.optional(),
      failures: z.array(z.object({ path: z.string(), message: z.string() })),
    }),
  ),
});

const noteSchema = z.object({ endpoint: z.string(), kind: z.enum(['unverified-shape', 'unknown-fields']), message: z.string(), paths: z.array(z.string()) });

const accountingSchema = z.object({
  requests: count,
  sent: count,
  notSent: count,
  outcomes: count,
  webhooks: z.object({ received: count, classified: count }),
});

const intervalLatencySchema = z.object({ count, p50: ms, p99: ms, max: ms, histogram: z.string() });
export const timelineSchema = z.object({
  intervalMs: ms,
  points: z.array(
    z.object({
      t: z.number().describe('end of the interval, s since the start'),
      durationS: z.number(),
      started: count,
      ended: count,
      inFlight: count,
      maxInFlight: count,
      outcomes: z.object(Object.fromEntries(OUTCOMES.map((o) => [o, count.optional()])) as Record<(typeof OUTCOMES)[number], z.ZodOptional<typeof count>>),
      targetRate: z.number().optional().describe('req/s'),
      ack: intervalLatencySchema.optional(),
      answer: intervalLatencySchema.optional(),
      sync: intervalLatencySchema.optional(),
    }),
  ),
});

const summaryMs = z.object({ count, p50: ms, p90: ms, p99: ms, p999: ms, max: ms, mean: ms });
const loadSchema = z.object({
  model: z.enum(['open', 'closed']),
  sent: count,
  warmupSent: count,
  dropped: count,
  measuredMs: ms,
  achievedRate: z.number().describe('req/s'),
  answeredRate: z.number().describe('req/s'),
  sendDelay: summaryMs.extend({ histogram: z.string() }).optional(),
  generator: z.object({ generatorBound: z.boolean(), p99Ms: ms, limitMs: ms, message: z.string() }).optional(),
  shards: z.array(z.string()).optional().describe('--shard i/n: the execution segments this load was'),
  startAt: z.string().optional().describe('--start-at: ISO 8601 UTC'),
  startLagMs: ms.optional().describe('--start-at: how late sending started, ms'),
});

const streamSchema = z.object({
  stream: z.string(),
  redis: z.string().describe('the Redis URL without its password'),
  shards: z.array(
    z.object({
      shardId: z.string(),
      redisMinusLocalUs: z.number().describe('us; within +- rttUs / 2'),
      rttUs: z.number(),
      measuredAt: z.string(),
      receivers: z.array(z.object({ receiverId: z.string(), receiverMinusLocalUs: z.number().describe('us'), uncertaintyUs: z.number() })),
    }),
  ),
});

const pointStats = z.object({ count, p50: ms, p99: ms });
const capacitySchema = z.object({
  maxRate: z.number().nullable(),
  firstFailingRate: z.number().nullable(),
  limitedBySearch: z.boolean(),
  suspect: z.boolean(),
  criteria: z.object({ ackP99Ms: ms, answerP99Ms: ms.nullable(), maxErrorRate: z.number() }),
  curve: z.array(
    z.object({
      rate: z.number(),
      achievedRate: z.number(),
      sent: count,
      dropped: count,
      errors: count,
      errorRate: z.number(),
      ack: pointStats,
      answer: pointStats,
      sync: pointStats,
      generatorBound: z.boolean(),
      sendDelayP99Ms: ms,
      passed: z.boolean(),
      reasons: z.array(z.string()),
    }),
  ),
});

export const reportDocumentSchema = z.object({
  version: z.literal(1),
  tool: z.literal('droidcheck'),
  kind: z.enum(['run', 'load', 'capacity']).optional().describe('the job that wrote it; absent in older reports (run)'),
  startedAt: z.string().describe('ISO 8601'),
  finishedAt: z.string().describe('ISO 8601'),
  durationMs: ms,
  settings: z.record(z.string(), z.unknown()).describe('run settings; never a token or secret'),
  summary: z.object({
    requests: count,
    sent: count.optional().describe('requests sent (not `not-sent`); absent in older reports'),
    // `invalid-response` and `not-sent` are absent in older reports (counted as 0).
    outcomes: z
      .object(Object.fromEntries(OUTCOMES.map((o) => [o, NEWER_OUTCOMES.has(o) ? count.optional() : count])) as Record<(typeof OUTCOMES)[number], z.ZodOptional<typeof count>>)
      .transform((o) => ({ ...zeroOutcomes(), ...o })),
    scenarios: count,
    passed: count,
    failed: count,
    passRate: z.number().min(0).max(1),
    judgeErrors: count.optional().describe('records whose graded expectations got no verdict; absent: 0'),
    retries: count.default(0).describe('submit retries (--retries) over all records; 0 when absent (older reports)'),
  }),
  accounting: accountingSchema.optional(),
  network: networkSchema.optional(),
  latency: perMetric(latencyEntrySchema, emptyEntry),
  histograms: perMetric(z.string().describe('HDR histogram, compressed base64, values in microseconds'), () => ''),
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
  thresholds: z.array(thresholdResultSchema),
  scenarios: z.array(scenarioEntrySchema),
  tallies: z.array(tallySchema).optional(),
  notes: z.array(noteSchema).optional(),
  passRates: passRatesSchema.optional(),
  parity: paritySchema.optional(),
  accuracy: accuracySchema.optional(),
  comparison: comparisonSchema.optional(),
  load: loadSchema.optional(),
  timeline: timelineSchema.optional(),
  capacity: capacitySchema.optional(),
  judge: z
    .object({
      settings: z.record(z.string(), z.unknown()),
      usage: z.object({ chatCalls: count, embeddingCalls: count, httpRequests: count, promptTokens: count, completionTokens: count, totalTokens: count, cacheHits: count, judgeErrors: count }),
    })
    .optional(),
  stream: streamSchema.optional().describe('--deliveries: the Redis Stream read, and the clock skew measured'),
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
