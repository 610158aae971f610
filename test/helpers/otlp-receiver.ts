/**
 * A local OTLP/HTTP receiver for the telemetry tests (127.0.0.1, port 0): it takes what an
 * exporter posts to /v1/traces and /v1/metrics, protobuf (decoded with the message classes the
 * official @opentelemetry/otlp-transformer shipped, generated from the OTLP .proto files) or JSON
 * (OTLP/JSON: ids in hex, enums as numbers), and answers 200 with an empty export response.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
// The message classes protobufjs generated from the OTLP .proto files, as the official transformer shipped them.
import generated from 'otlp-proto-decode/build/src/generated/root.js';

type Proto = {
  opentelemetry: {
    proto: {
      collector: {
        trace: { v1: { ExportTraceServiceRequest: ProtoType } };
        metrics: { v1: { ExportMetricsServiceRequest: ProtoType } };
      };
    };
  };
};
interface ProtoType {
  decode(bytes: Uint8Array): unknown;
  toObject(message: unknown, options: Record<string, unknown>): unknown;
}
const root = generated as unknown as Proto;
const { ExportTraceServiceRequest } = root.opentelemetry.proto.collector.trace.v1;
const { ExportMetricsServiceRequest } = root.opentelemetry.proto.collector.metrics.v1;

/** An attribute value as OTLP carries it. */
type AnyValue = {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
};
type KeyValue = { key: string; value?: AnyValue };

/** One span, flattened: ids in lowercase hex, attributes as plain values, times in ns (number). */
export interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  startNs: number;
  endNs: number;
  attributes: Record<string, unknown>;
  events: { name: string; timeNs: number; attributes: Record<string, unknown> }[];
  status: { code: number; message?: string };
}

/** One metric data point, flattened: the metric's name, its attributes, its value (sum/gauge) or count (histogram). */
interface ReceivedPoint {
  export: number;
  name: string;
  unit: string;
  attributes: Record<string, unknown>;
  value?: number;
  count?: number;
  sum?: number;
}

function plain(v: AnyValue | undefined): unknown {
  if (!v) return undefined;
  if (v.stringValue !== undefined) return v.stringValue;
  if (v.intValue !== undefined) return Number(v.intValue);
  if (v.doubleValue !== undefined) return v.doubleValue;
  if (v.boolValue !== undefined) return v.boolValue;
  return undefined;
}

const attrs = (list: KeyValue[] | undefined): Record<string, unknown> =>
  Object.fromEntries((list ?? []).map((kv) => [kv.key, plain(kv.value)]));

/** Protobuf bytes fields come as base64 from toObject; JSON as hex already. */
function hex(id: string | undefined, json: boolean): string {
  if (!id) return '';
  return json ? id.toLowerCase() : Buffer.from(id, 'base64').toString('hex');
}

export interface OtlpReceiver {
  url: string;
  spans: ReceivedSpan[];
  points: ReceivedPoint[];
  /** Content types of the requests received, by path. */
  contentTypes: Map<string, Set<string>>;
  /** Number of metric exports received. */
  metricExports(): number;
  close(): Promise<void>;
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const points: ReceivedPoint[] = [];
  const contentTypes = new Map<string, Set<string>>();
  let exports = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const type = String(req.headers['content-type'] ?? '');
      const path = req.url ?? '';
      if (!contentTypes.has(path)) contentTypes.set(path, new Set());
      contentTypes.get(path)!.add(type);
      const json = type.includes('json');
      const opts = { longs: String, bytes: String, defaults: false, arrays: true };
      try {
        if (path === '/v1/traces') {
          const msg = (
            json
              ? JSON.parse(body.toString('utf8'))
              : ExportTraceServiceRequest.toObject(ExportTraceServiceRequest.decode(body), opts)
          ) as {
            resourceSpans?: {
              resource?: { attributes?: KeyValue[] };
              scopeSpans?: { spans?: Record<string, unknown>[] }[];
            }[];
          };
          for (const rs of msg.resourceSpans ?? []) {
            const service = String(attrs(rs.resource?.attributes)['service.name'] ?? '');
            for (const ss of rs.scopeSpans ?? [])
              for (const s of ss.spans ?? []) {
                const sp = s as {
                  traceId?: string;
                  spanId?: string;
                  parentSpanId?: string;
                  name: string;
                  kind?: number;
                  startTimeUnixNano?: string;
                  endTimeUnixNano?: string;
                  attributes?: KeyValue[];
                  events?: { name: string; timeUnixNano?: string; attributes?: KeyValue[] }[];
                  status?: { code?: number; message?: string };
                };
                spans.push({
                  service,
                  traceId: hex(sp.traceId, json),
                  spanId: hex(sp.spanId, json),
                  parentSpanId: hex(sp.parentSpanId, json),
                  name: sp.name,
                  kind: Number(sp.kind ?? 0),
                  startNs: Number(sp.startTimeUnixNano ?? 0),
                  endNs: Number(sp.endTimeUnixNano ?? 0),
                  attributes: attrs(sp.attributes),
                  events: (sp.events ?? []).map((e) => ({
                    name: e.name,
                    timeNs: Number(e.timeUnixNano ?? 0),
                    attributes: attrs(e.attributes),
                  })),
                  status: {
                    code: Number(sp.status?.code ?? 0),
                    ...(sp.status?.message && { message: sp.status.message }),
                  },
                });
              }
          }
        } else if (path === '/v1/metrics') {
          exports += 1;
          const msg = (
            json
              ? JSON.parse(body.toString('utf8'))
              : ExportMetricsServiceRequest.toObject(ExportMetricsServiceRequest.decode(body), opts)
          ) as { resourceMetrics?: { scopeMetrics?: { metrics?: Record<string, unknown>[] }[] }[] };
          for (const rm of msg.resourceMetrics ?? [])
            for (const sm of rm.scopeMetrics ?? [])
              for (const m of sm.metrics ?? []) {
                const metric = m as {
                  name: string;
                  unit?: string;
                  sum?: { dataPoints?: Record<string, unknown>[] };
                  gauge?: { dataPoints?: Record<string, unknown>[] };
                  histogram?: { dataPoints?: Record<string, unknown>[] };
                };
                const dps = metric.sum?.dataPoints ?? metric.gauge?.dataPoints ?? [];
                for (const dp of dps) {
                  const d = dp as { asInt?: string | number; asDouble?: number; attributes?: KeyValue[] };
                  points.push({
                    export: exports,
                    name: metric.name,
                    unit: metric.unit ?? '',
                    attributes: attrs(d.attributes),
                    value: d.asInt !== undefined ? Number(d.asInt) : Number(d.asDouble ?? 0),
                  });
                }
                for (const dp of metric.histogram?.dataPoints ?? []) {
                  const d = dp as { count?: string | number; sum?: number; attributes?: KeyValue[] };
                  points.push({
                    export: exports,
                    name: metric.name,
                    unit: metric.unit ?? '',
                    attributes: attrs(d.attributes),
                    count: Number(d.count ?? 0),
                    sum: Number(d.sum ?? 0),
                  });
                }
              }
        }
      } catch (err) {
        res.writeHead(400, { 'content-type': 'text/plain' });
        res.end(String(err));
        return;
      }
      if (json) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{}');
      } else {
        res.writeHead(200, { 'content-type': 'application/x-protobuf' });
        res.end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    points,
    contentTypes,
    metricExports: () => exports,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
