/**
 * The OpenTelemetry SDK as droidcheck uses it: a tracer provider and a meter provider of its own
 * (never registered as the process's global ones: a library caller's own OpenTelemetry set-up is
 * left alone), with the official OTLP exporters of the transport asked for (settings.ts): only
 * that transport's package is imported (gRPC's, when installed: GRPC_EXPORTERS).
 *
 * Spans go through the tail sampler (tail.ts) into a batch processor; metrics are read every
 * OTEL_METRIC_EXPORT_INTERVAL ms (default 60 s, the specification's) and once more at shutdown,
 * so the last export holds the final counts.
 */
import type { Tracer } from '@opentelemetry/api';
import { UsageError } from '../errors.js';
import { resourceFromAttributes, type Resource } from '@opentelemetry/resources';
import { MeterProvider, PeriodicExportingMetricReader, type PushMetricExporter } from '@opentelemetry/sdk-metrics';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
  TracerProvider,
  type Sampler,
  type SpanExporter,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace';
import {
  resourceAttributes,
  samplerChoice,
  signalTarget,
  type SamplerChoice,
  type SignalTarget,
  type TelemetrySettings,
} from './settings.js';

/** The version droidcheck reports as its instrumentation scope's (the package's, read once). */
const SCOPE = 'droidcheck';

/**
 * The gRPC exporters are no dependency of droidcheck: they bring @grpc/grpc-js and a package with
 * an install script (protobufjs), which every install would then warn about. A user who wants
 * `grpc` installs them beside droidcheck; they are loaded by name, only then.
 */
const GRPC_EXPORTERS = {
  traces: '@opentelemetry/exporter-trace-otlp-grpc',
  metrics: '@opentelemetry/exporter-metrics-otlp-grpc',
} as const;

/** The gRPC exporter of `signal`; UsageError (exit 2) naming the packages to install when they are not there. */
async function grpcExporter<E>(signal: keyof typeof GRPC_EXPORTERS, name: string, url: string): Promise<E> {
  let module: Record<string, new (config: { url: string }) => E>;
  try {
    module = (await import(GRPC_EXPORTERS[signal])) as typeof module;
  } catch {
    throw new UsageError(
      `OTEL_EXPORTER_OTLP_PROTOCOL=grpc: the gRPC exporters are not installed (they are optional: they bring an install script); run npm install ${GRPC_EXPORTERS.traces}@${EXPORTER_VERSION} ${GRPC_EXPORTERS.metrics}@${EXPORTER_VERSION}, or use http/protobuf`,
    );
  }
  return new module[name]!({ url });
}

/** The OTLP exporters' version droidcheck is built with (package.json pins the HTTP ones to it). */
const EXPORTER_VERSION = '0.223.0';

async function spanExporter(t: SignalTarget): Promise<SpanExporter> {
  if (t.protocol === 'grpc') return grpcExporter<SpanExporter>('traces', 'OTLPTraceExporter', t.url);
  const { OTLPTraceExporter } =
    t.protocol === 'http/json'
      ? await import('@opentelemetry/exporter-trace-otlp-http')
      : await import('@opentelemetry/exporter-trace-otlp-proto');
  return new OTLPTraceExporter({ url: t.url, headers: t.headers });
}

async function metricExporter(t: SignalTarget): Promise<PushMetricExporter> {
  if (t.protocol === 'grpc') return grpcExporter<PushMetricExporter>('metrics', 'OTLPMetricExporter', t.url);
  const { OTLPMetricExporter } =
    t.protocol === 'http/json'
      ? await import('@opentelemetry/exporter-metrics-otlp-http')
      : await import('@opentelemetry/exporter-metrics-otlp-proto');
  return new OTLPMetricExporter({ url: t.url, headers: t.headers });
}

/** The SDK sampler of a choice (OTEL_TRACES_SAMPLER). */
function samplerOf(choice: SamplerChoice): Sampler {
  switch (choice.name) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return new TraceIdRatioBasedSampler(choice.ratio);
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(choice.ratio) });
    default:
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
  }
}

export interface Sdk {
  resource: Resource;
  /** Undefined when traces are not exported (OTEL_TRACES_EXPORTER=none, no endpoint for them). */
  tracer: Tracer | undefined;
  /** Undefined when metrics are not exported. */
  meters: MeterProvider | undefined;
  /** The sampler OTEL_TRACES_SAMPLER asks for. */
  sampler: Sampler;
  /** Exports what is left and closes the exporters (metrics read once more first). */
  shutdown(): Promise<void>;
}

export interface SdkOptions {
  /** Resource attributes under the user's (service.name default, droidcheck.run.id, ...). */
  resource: Record<string, string>;
  /** Builds the span processor the batch processor sits behind (the tail sampler), given the sampler. */
  spanProcessor?: (batch: SpanProcessor, sampler: Sampler) => SpanProcessor;
  /** The sampler of the provider itself (default: the one OTEL_TRACES_SAMPLER asks for). */
  providerSampler?: (sampler: Sampler) => Sampler;
  warn(line: string): void;
  version: string;
}

/** Builds the providers and exporters of `settings` (see module docs). */
export async function openSdk(settings: TelemetrySettings, options: SdkOptions): Promise<Sdk> {
  const resource = resourceFromAttributes(resourceAttributes(settings, options.resource));
  const sampler = samplerOf(samplerChoice(settings, options.warn));
  const traces = signalTarget(settings, 'traces');
  const metrics = signalTarget(settings, 'metrics');
  let provider: TracerProvider | undefined;
  if (traces) {
    const num = (name: string, fallback: number): number => {
      const v = Number(settings.env[name]);
      return Number.isInteger(v) && v > 0 ? v : fallback;
    };
    // A load run ends hundreds of conversations a second: a queue of the SDK's default 2,048
    // spans would drop spans between two exports (OTEL_BSP_* still decide when set).
    const batch = new BatchSpanProcessor({
      exporter: await spanExporter(traces),
      maxQueueSize: num('OTEL_BSP_MAX_QUEUE_SIZE', 65_536),
      maxExportBatchSize: num('OTEL_BSP_MAX_EXPORT_BATCH_SIZE', 2_048),
      scheduledDelayMillis: num('OTEL_BSP_SCHEDULE_DELAY', 2_000),
    });
    provider = new TracerProvider({
      resource,
      sampler: options.providerSampler ? options.providerSampler(sampler) : sampler,
      spanProcessors: [options.spanProcessor ? options.spanProcessor(batch, sampler) : batch],
    });
  }
  let meters: MeterProvider | undefined;
  if (metrics) {
    const interval = Number(settings.env.OTEL_METRIC_EXPORT_INTERVAL);
    meters = new MeterProvider({
      resource,
      readers: [
        new PeriodicExportingMetricReader({
          exporter: await metricExporter(metrics),
          exportIntervalMillis: Number.isFinite(interval) && interval > 0 ? interval : 60_000,
        }),
      ],
    });
  }
  return {
    resource,
    tracer: provider?.getTracer(SCOPE, options.version),
    meters,
    sampler,
    async shutdown() {
      await Promise.all([provider?.shutdown(), meters?.shutdown()]);
    },
  };
}
