/**
 * The HTTP endpoint Prometheus scrapes (`--metrics-port`, docs/scale.md): `GET /metrics` answers
 * the registry's exposition text (prometheus.ts); `GET /healthz` 200. Anything else is 404. A
 * plain node:http server: nothing else of a web framework is needed for one route.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LiveMetrics } from './prometheus.js';

export interface MetricsServerOptions {
  /** Default 127.0.0.1; `0.0.0.0` for a Prometheus on another host (a container, a pod). */
  host?: string;
  /** 0: any free port. */
  port: number;
}

export interface MetricsServer {
  /** `http://host:port/metrics`. */
  readonly url: string;
  /** Stops listening and drops open connections. Idempotent. */
  close(): Promise<void>;
}

/** Listens; rejects with the listen error (EADDRINUSE, EACCES) when the port cannot be bound. */
export async function startMetricsServer(metrics: LiveMetrics, options: MetricsServerOptions): Promise<MetricsServer> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    if (path === '/metrics') {
      metrics.metrics().then(
        (text) =>
          res.writeHead(200, { 'content-type': metrics.contentType }).end(req.method === 'HEAD' ? undefined : text),
        (err: unknown) =>
          res
            .writeHead(500, { 'content-type': 'text/plain' })
            .end(`metrics failed: ${err instanceof Error ? err.message : String(err)}\n`),
      );
      return;
    }
    if (path === '/healthz') {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok\n');
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found: GET /metrics\n');
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shown =
    address.address === '0.0.0.0' || address.address === '::'
      ? '127.0.0.1'
      : address.family === 'IPv6'
        ? `[${address.address}]`
        : address.address;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${shown}:${address.port}/metrics`,
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
