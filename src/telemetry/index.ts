/**
 * telemetry/: OpenTelemetry export (docs/telemetry.md): a job's traces (spans.ts: a trace per
 * conversation, its turns, calls, deliveries, model calls and verdicts; tail.ts: a failed
 * conversation always kept whole), its metrics (metrics.ts: the Prometheus endpoint's
 * instruments over OTLP) and the embedded emulator's spans (emulator.ts), through the official
 * SDK and OTLP exporters (sdk.ts), configured the standard way (settings.ts: OTEL_*).
 *
 * Loaded only when export is on (jobs/pipeline and the receive and emulate commands import it
 * dynamically): a run without export loads no OpenTelemetry package (test/telemetry proves it).
 */
import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock.js';
import type { EmulatorTracer, WorkerTracing } from '../emulator/index.js';
import type { ModelCallObserver } from '../llm/index.js';
import { traceOf, verdictOf, type ProgressSnapshot, type RecordSink, type RequestTracer } from '../runner/index.js';
import { createEmulatorTracer } from './emulator.js';
import { createOtlpJobMetrics, type OtlpJobMetrics } from './metrics.js';
import { openSdk } from './sdk.js';
import type { TelemetrySettings } from './settings.js';
import { createSpanTracer, modelCallSpans, type SpanTracer } from './spans.js';
import { TailSampler } from './tail.js';
import { TOOL_VERSION } from './version.js';
import { AlwaysOnSampler } from '@opentelemetry/sdk-trace';

export type { TelemetrySettings } from './settings.js';
export { createEmulatorTracer } from './emulator.js';

/** The module the emulator's worker thread imports to build its tracer (emulator/worker-host.ts). */
const EMULATOR_MODULE = new URL('./emulator.js', import.meta.url).href;

/** Webhook totals by route and verdict (jobs/pipeline/live-metrics.ts webhookTotals). */
type WebhookTotals = Record<string, { received: number; verdicts: Record<string, number>; parked?: number }>;

export interface JobTelemetry {
  /** `droidcheck.run.id`: DROIDCHECK_RUN_ID when set (shards of one run share it), else a random UUID. */
  readonly runId: string;
  /** The span tracer of the job's requests against `baseUrl`; undefined when traces are not exported. */
  tracerFor(baseUrl: string): RequestTracer | undefined;
  /** Ends each conversation's trace and counts each request (add it to the engine's sinks). */
  readonly sink: RecordSink;
  onTick(s: ProgressSnapshot): void;
  /** Reads the receiver's counters at each collection of the metrics. */
  watch(read: () => WebhookTotals): void;
  /** Reads the job's coverage shares (0..1; a share left out is not measured) at each collection of the metrics. */
  watchCoverage(
    read: () => { products?: number; intents?: number; rules?: number; funnel?: Partial<Record<string, number>> },
  ): void;
  /**
   * What the receiver calls for each duplicate delivery it counts (receiver/ DeliverySource
   * onDuplicate): an event on the delivery span of that requestId. Undefined when traces are not
   * exported (the receiver then calls nothing).
   */
  readonly duplicates: ((requestId: string, receivedAtMs: number) => void) | undefined;
  /** GenAI spans of the model calls (llm/budget.ts observer); undefined when traces are not exported. */
  readonly modelCalls: ModelCallObserver | undefined;
  /** The embedded emulator's tracer, in this thread, or how its worker builds one. */
  readonly emulator: { inline(): Promise<EmulatorTracer | undefined>; worker: WorkerTracing };
  /** The figures are final: `droidcheck.job.finished` 1. */
  finish(droppedTotal: number | undefined): void;
  /** Conversations the tail sampler kept and dropped. */
  sampled(): { kept: number; dropped: number };
  /** Exports what is left (the last metrics export holds the final counts) and closes the exporters. */
  shutdown(): Promise<void>;
}

export interface JobTelemetryOptions {
  /** The job's kind (`run`, `load`, ...): `droidcheck.job`. */
  job: string;
  /** `droidcheck.shard` (`1/3`), when sharded. */
  shard?: string | undefined;
  clock: Clock;
  /** One line on stderr (a setting droidcheck could not use). */
  warn(line: string): void;
}

/** Starts the export of a job (see module docs). */
export async function startJobTelemetry(
  settings: TelemetrySettings,
  options: JobTelemetryOptions,
): Promise<JobTelemetry> {
  const runId = settings.env.DROIDCHECK_RUN_ID ?? process.env.DROIDCHECK_RUN_ID ?? randomUUID();
  const common = {
    'droidcheck.run.id': runId,
    'droidcheck.job': options.job,
    ...(options.shard !== undefined && { 'droidcheck.shard': options.shard }),
  };
  let tail: TailSampler | undefined;
  const sdk = await openSdk(settings, {
    resource: { 'service.name': 'droidcheck', 'service.version': TOOL_VERSION, ...common },
    // Every span is recorded; the sampler OTEL_TRACES_SAMPLER asks for decides at the root's end (tail.ts).
    providerSampler: () => new AlwaysOnSampler(),
    spanProcessor: (batch, sampler) => (tail = new TailSampler(batch, sampler)),
    warn: options.warn,
    version: TOOL_VERSION,
  });
  const meter = sdk.meters?.getMeter('droidcheck', TOOL_VERSION);
  const metrics: OtlpJobMetrics | undefined = meter && createOtlpJobMetrics(meter, common);
  let spans: SpanTracer | undefined;
  return {
    runId,
    tracerFor(baseUrl) {
      if (!sdk.tracer) return undefined;
      spans = createSpanTracer(sdk.tracer, options.clock, runId, baseUrl, traceOf);
      return spans;
    },
    sink: {
      onRecord(record, warmup) {
        const verdict = verdictOf(record);
        spans?.end(record, verdict, warmup);
        metrics?.onRecord(record, verdict, warmup);
      },
    },
    onTick(s) {
      metrics?.onTick({
        inFlight: s.inFlight,
        openConversations: s.openConversations,
        dropped: s.dropped,
        targetRate: s.targetRate,
      });
    },
    watch(read) {
      metrics?.watch(read);
    },
    watchCoverage(read) {
      metrics?.watchCoverage(read);
    },
    duplicates: sdk.tracer && ((requestId, receivedAtMs) => spans?.duplicate(requestId, receivedAtMs)),
    modelCalls: sdk.tracer && modelCallSpans(sdk.tracer, 'openai'),
    emulator: {
      inline: () => createEmulatorTracer(settings),
      worker: { module: EMULATOR_MODULE, settings },
    },
    finish(droppedTotal) {
      metrics?.finish(droppedTotal);
    },
    sampled: () => tail?.counts() ?? { kept: 0, dropped: 0 },
    shutdown: () => {
      // No delivery comes any more (the target closed before): the spans held for duplicates end.
      spans?.close();
      return sdk.shutdown();
    },
  };
}
