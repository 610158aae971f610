/**
 * spec: Other addresses. `/droids/:droidId/debug/webhooks`: webhook deliveries of the
 * retention window (7 days) with status and date-range filters (HTML; `?format=json` for
 * data; filters `status`, `from`, `to`, and `kind` = answer | message | intent).
 * `/api/droids/:droidId/test-async-answer-webhook`: a development echo receiver.
 * Neither takes the bearer token (a dashboard page and a webhook target); both check droidId.
 */
import type { FastifyInstance } from 'fastify';
import type { EmulatorContext } from '../context.js';
import type { DeliveryLogEntry, DeliveryLogQuery } from '../delivery-log.js';
import { sendError } from '../http-errors.js';

const ECHO_MAX = 100;

function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

interface DebugQuery {
  status?: string;
  kind?: string;
  from?: string;
  to?: string;
  format?: string;
}

/** Parses the filters; returns an error text for a bad one. */
function parseDebugQuery(q: DebugQuery): DeliveryLogQuery | string {
  const out: DeliveryLogQuery = {};
  if (q.status) {
    if (q.status === 'success' || q.status === 'failed') out.status = q.status;
    else if (/^\d{3}$/.test(q.status)) out.status = Number(q.status);
    else return 'status must be success, failed or an HTTP status code';
  }
  if (q.kind) {
    if (q.kind === 'answer' || q.kind === 'message' || q.kind === 'intent') out.kind = q.kind;
    else return 'kind must be answer, message or intent';
  }
  for (const key of ['from', 'to'] as const) {
    const v = q[key];
    if (!v) continue;
    const d = new Date(v);
    if (Number.isNaN(d.getTime())) return `${key} must be an ISO 8601 date`;
    out[key] = d;
  }
  return out;
}

function renderDeliveryPage(droidId: number, entries: DeliveryLogEntry[], q: DebugQuery): string {
  const rows = entries
    .map(
      (e) =>
        `<tr class="${e.ok ? 'ok' : 'fail'}"><td>${esc(e.timestamp)}</td><td>${e.kind}</td><td>${esc(e.requestId)}</td><td>${e.attempt}</td>` +
        `<td>${esc(e.targetUrl)}</td><td>${e.status ?? '-'}</td><td>${e.durationMs}</td><td>${esc(e.error)}</td>` +
        `<td><details><summary>payload</summary><pre>${esc(JSON.stringify(e.requestPayload, null, 2))}</pre></details></td>` +
        `<td><pre>${esc(e.responseBody)}</pre></td></tr>`,
    )
    .join('\n');
  const sel = (v: string) => (q.status === v ? ' selected' : '');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Webhook deliveries - droid ${droidId}</title>
<style>body{font-family:system-ui,sans-serif;margin:1.5rem}table{border-collapse:collapse;width:100%}td,th{border:1px solid #ccc;padding:.3rem;font-size:.85rem;vertical-align:top}tr.fail{background:#fde8e8}tr.ok{background:#eefbea}pre{margin:0;white-space:pre-wrap;max-width:40rem}</style>
</head><body>
<h1>Webhook deliveries (droid ${droidId})</h1>
<form method="get">
<label>Status <select name="status"><option value="">all</option><option value="success"${sel('success')}>success</option><option value="failed"${sel('failed')}>failed</option></select></label>
<label>From <input name="from" value="${esc(q.from ?? '')}" placeholder="2025-01-15T00:00:00Z"></label>
<label>To <input name="to" value="${esc(q.to ?? '')}"></label>
<button type="submit">Filter</button>
</form>
<p>${entries.length} deliveries</p>
<table><thead><tr><th>Timestamp</th><th>Webhook</th><th>requestId / mid</th><th>Attempt</th><th>Target URL</th><th>Status</th><th>Duration (ms)</th><th>Error</th><th>Request payload</th><th>Response body</th></tr></thead>
<tbody>
${rows}
</tbody></table>
</body></html>`;
}

export function debugRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  const droid = String(ctx.droidId);

  app.get<{ Params: { droidId: string }; Querystring: DebugQuery }>(
    '/droids/:droidId/debug/webhooks',
    async (request, reply) => {
      if (request.params.droidId !== droid)
        return sendError(reply, 403, `No access to droid ${request.params.droidId}`);
      const query = parseDebugQuery(request.query);
      if (typeof query === 'string') return sendError(reply, 400, query);
      ctx.log.sweep();
      const entries = ctx.log.query(query);
      if (request.query.format === 'json') return { deliveries: entries, total: entries.length };
      return reply.type('text/html; charset=utf-8').send(renderDeliveryPage(ctx.droidId, entries, request.query));
    },
  );

  app.post<{ Params: { droidId: string } }>(
    '/api/droids/:droidId/test-async-answer-webhook',
    async (request, reply) => {
      if (request.params.droidId !== droid)
        return sendError(reply, 403, `No access to droid ${request.params.droidId}`);
      const query = request.query as Record<string, unknown>;
      ctx.echo.push({
        receivedAt: ctx.options.clock.wallNow().toISOString(),
        secretPresent: typeof query.secret === 'string',
        body: request.body,
      });
      if (ctx.echo.length > ECHO_MAX) ctx.echo.splice(0, ctx.echo.length - ECHO_MAX);
      return { received: true, requestId: (request.body as { requestId?: unknown } | null)?.requestId ?? null };
    },
  );

  app.get<{ Params: { droidId: string } }>('/api/droids/:droidId/test-async-answer-webhook', async (request, reply) => {
    if (request.params.droidId !== droid) return sendError(reply, 403, `No access to droid ${request.params.droidId}`);
    return { received: ctx.echo, total: ctx.echo.length };
  });
}
