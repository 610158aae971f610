/**
 * OpenTelemetry's standard configuration, read from the settings a command resolved
 * (config/telemetry.ts): where each signal goes and how (OpenTelemetry's "OTLP Exporter
 * Configuration": a signal's own OTEL_EXPORTER_OTLP_{TRACES,METRICS}_* variable wins over the
 * general one; the general endpoint gets `/v1/traces` or `/v1/metrics` appended, a signal's own
 * is used as it is), the resource (OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES) and the sampler
 * (OTEL_TRACES_SAMPLER, OTEL_TRACES_SAMPLER_ARG). Read from the settings' `env`, never from
 * process.env, so a library caller's environment is the one that counts.
 */

/** The OTLP transports. */
type OtlpProtocol = 'http/protobuf' | 'http/json' | 'grpc';

/** What a command resolved (config/telemetry.ts ResolvedTelemetry has this shape). */
export interface TelemetrySettings {
  endpoint: string | undefined;
  protocol: OtlpProtocol;
  /** OTEL_* variables as given. */
  env: Record<string, string>;
}

export type Signal = 'traces' | 'metrics';

/** Where `signal` goes, how, with which headers; undefined when it is not exported (no endpoint, or OTEL_{signal}_EXPORTER=none). */
export interface SignalTarget {
  url: string;
  protocol: OtlpProtocol;
  headers: Record<string, string>;
}

const PROTOCOLS: readonly OtlpProtocol[] = ['http/protobuf', 'http/json', 'grpc'];

/** `k1=v1,k2=v2` with percent-encoded values (the W3C Baggage format OTEL_EXPORTER_OTLP_HEADERS and OTEL_RESOURCE_ATTRIBUTES use). */
function keyValueList(text: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of (text ?? '').split(',')) {
    const eq = item.indexOf('=');
    if (eq <= 0) continue;
    const key = item.slice(0, eq).trim();
    const raw = item.slice(eq + 1).trim();
    let value = raw;
    try {
      value = decodeURIComponent(raw);
    } catch {
      // a stray % is kept as written
    }
    if (key !== '') out[key] = value;
  }
  return out;
}

/** The target of `signal` (see module docs). */
export function signalTarget(settings: TelemetrySettings, signal: Signal): SignalTarget | undefined {
  const upper = signal.toUpperCase();
  const env = settings.env;
  if (env[`OTEL_${upper}_EXPORTER`]?.trim().toLowerCase() === 'none') return undefined;
  const own = env[`OTEL_EXPORTER_OTLP_${upper}_PROTOCOL`]?.trim() as OtlpProtocol | undefined;
  const protocol = own !== undefined && PROTOCOLS.includes(own) ? own : settings.protocol;
  const ownUrl = env[`OTEL_EXPORTER_OTLP_${upper}_ENDPOINT`]?.trim();
  const base = settings.endpoint?.replace(/\/+$/, '');
  const url = ownUrl || (base === undefined ? undefined : protocol === 'grpc' ? base : `${base}/v1/${signal}`);
  if (url === undefined) return undefined;
  return {
    url,
    protocol,
    headers: {
      ...keyValueList(env.OTEL_EXPORTER_OTLP_HEADERS),
      ...keyValueList(env[`OTEL_EXPORTER_OTLP_${upper}_HEADERS`]),
    },
  };
}

/** The resource's attributes: OTEL_RESOURCE_ATTRIBUTES, then OTEL_SERVICE_NAME (wins for service.name), then `defaults` under both. */
export function resourceAttributes(
  settings: TelemetrySettings,
  defaults: Record<string, string>,
): Record<string, string> {
  const given = keyValueList(settings.env.OTEL_RESOURCE_ATTRIBUTES);
  const service = settings.env.OTEL_SERVICE_NAME?.trim();
  return { ...defaults, ...given, ...(service ? { 'service.name': service } : {}) };
}

/** OTEL_TRACES_SAMPLER and its argument (OpenTelemetry's "General SDK Configuration"); default parentbased_always_on. */
export interface SamplerChoice {
  name:
    | 'always_on'
    | 'always_off'
    | 'traceidratio'
    | 'parentbased_always_on'
    | 'parentbased_always_off'
    | 'parentbased_traceidratio';
  /** traceidratio: the share kept, 0..1 (default 1). */
  ratio: number;
}

const SAMPLERS: readonly SamplerChoice['name'][] = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
];

/** The sampler the settings ask for; an unknown name is the default (as the specification says), `warn` told why. */
export function samplerChoice(settings: TelemetrySettings, warn: (line: string) => void): SamplerChoice {
  const raw = settings.env.OTEL_TRACES_SAMPLER?.trim().toLowerCase();
  const name = raw === undefined ? 'parentbased_always_on' : (raw as SamplerChoice['name']);
  const known = SAMPLERS.includes(name);
  if (!known) warn(`OTEL_TRACES_SAMPLER=${raw}: not a sampler droidcheck knows; parentbased_always_on is used`);
  const arg = Number(settings.env.OTEL_TRACES_SAMPLER_ARG);
  const ratio = Number.isFinite(arg) && arg >= 0 && arg <= 1 ? arg : 1;
  return { name: known ? name : 'parentbased_always_on', ratio };
}
