/**
 * What the jobs, `receive` and `emulate` read of OpenTelemetry's standard configuration
 * (docs/telemetry.md): export is on when a collector is named (`--otlp-endpoint`,
 * `otlpEndpoint:` or OTEL_EXPORTER_OTLP_ENDPOINT, or a signal's own
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT / _METRICS_ENDPOINT) and OTEL_SDK_DISABLED is not `true`
 * (OpenTelemetry's environment variable specification, "General SDK Configuration"). The other
 * OTEL_* variables (headers, service name, resource attributes, sampler, a signal's own protocol
 * or headers) are kept as given and read where the SDK is built (src/telemetry/).
 */
import type { ResolvedOptions } from './values.js';

/** The OTLP transports (OTEL_EXPORTER_OTLP_PROTOCOL). */
type OtlpProtocol = 'http/protobuf' | 'http/json' | 'grpc';

/** Export settings: the collector, the transport, and every OTEL_* variable of the environment. */
export interface ResolvedTelemetry {
  /** The collector's base URL (signals at `/v1/traces`, `/v1/metrics`); undefined when only a signal's own endpoint is set. */
  endpoint: string | undefined;
  protocol: OtlpProtocol;
  /** OTEL_* variables, as given (empty ones left out). */
  env: Record<string, string>;
}

const SIGNAL_ENDPOINTS = ['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', 'OTEL_EXPORTER_OTLP_METRICS_ENDPOINT'];

/** Export settings of a command, undefined when export is off (see module docs). */
export function telemetryOf(
  o: { values: Pick<ResolvedOptions['values'], 'otlpEndpoint' | 'otlpProtocol'> },
  env: NodeJS.ProcessEnv,
): ResolvedTelemetry | undefined {
  const otel = Object.fromEntries(
    Object.entries(env).filter((e): e is [string, string] => e[0].startsWith('OTEL_') && (e[1] ?? '') !== ''),
  );
  if (otel.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return undefined;
  const endpoint = o.values.otlpEndpoint;
  if (endpoint === undefined && !SIGNAL_ENDPOINTS.some((name) => otel[name] !== undefined)) return undefined;
  return { endpoint, protocol: o.values.otlpProtocol, env: otel };
}
