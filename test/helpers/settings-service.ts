/**
 * A small fake of the service for the set-up tests of doctor, the preflight and the early stops
 * (test/jobs/doctor-wording.test.ts, test/jobs/silent-target.test.ts): Fastify on 127.0.0.1 port
 * 0, the documented auth (401 `Invalid API key`, 403 for another droid), `GET channels`, and an
 * async endpoint whose answer is the test's choice:
 *
 * - `asyncRefusal`: every `get-droid-answer-async` gets this status and body (JSON object, or
 *   text), whatever the message: a service that checks its settings before the body, worded as
 *   the test likes;
 * - otherwise the documented ack (`{success, requestId, message}`) and **nothing delivered**: no
 *   answer webhook, no forwarded message. It is what a first try looks like when the service's
 *   settings point somewhere else than this droidcheck.
 *
 * - with `deliver`, the ack, then the answer payload POSTed to `deliver.answerUrl` and, when
 *   `deliver.messagesUrl` is set, the test customer's message forwarded there (`?verify_token=`).
 *
 * `send` is acknowledged (`{success, mid}`) and never forwarded.
 */
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { request } from 'undici';
import type { MessageForwarding } from '../../src/contract/index.js';
import { analyseAnswer } from '../../src/emulator/ai/index.js';
import { buildAnswerPayload } from '../../src/emulator/payload.js';

export interface SettingsServiceOptions {
  /** Default 7. */
  droidId?: number;
  /** The answer to every async request; undefined: acknowledge and never deliver. */
  asyncRefusal?: { status: number; body: Record<string, unknown> | string };
  /** Deliver the answer (and forward the test customer's message) after the ack. */
  deliver?: { answerUrl: string; messagesUrl?: string; verifyToken?: string };
}

const TEST_CUSTOMER = 5;

function postJson(url: string, body: unknown): Promise<void> {
  return request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  }).then(
    (res) => res.body.dump(),
    () => undefined,
  );
}

export interface SettingsService {
  url: string;
  token: string;
  droidId: number;
  /** What it saw. */
  stats: { channels: number; asyncRequests: number; asyncAcked: number; sends: number };
  close(): Promise<void>;
}

export async function startSettingsService(options: SettingsServiceOptions = {}): Promise<SettingsService> {
  const token = `svc_${randomBytes(18).toString('hex')}`;
  const droidId = options.droidId ?? 7;
  const stats: SettingsService['stats'] = { channels: 0, asyncRequests: 0, asyncAcked: 0, sends: 0 };
  const app = Fastify({ logger: false });
  app.addHook('onRequest', async (request, reply) => {
    if (request.headers.authorization !== `Bearer ${token}`)
      return reply.code(401).send({ error: 'Unauthorized', message: 'Invalid API key' });
    if (!request.url.startsWith(`/api/droids/${droidId}/endpoint/`))
      return reply.code(403).send({ error: 'Forbidden', message: 'Access denied' });
    return undefined;
  });
  const prefix = `/api/droids/${droidId}/endpoint`;
  app.get(`${prefix}/channels`, async () => {
    stats.channels += 1;
    return { channels: [] };
  });
  const pending = new Set<Promise<void>>();
  const deliver = (requestId: string, text: string): void => {
    const d = options.deliver;
    if (!d) return;
    const at = new Date().toISOString();
    const forwarded: MessageForwarding = {
      mid: `ddtp-${randomBytes(8).toString('hex')}`,
      chatId: 1,
      customerId: TEST_CUSTOMER,
      droidId,
      channelId: 1,
      type: 'human',
      content: { type: 'text', value: text },
      createdAt: at,
    };
    const url = d.messagesUrl ? new URL(d.messagesUrl) : undefined;
    if (url && d.verifyToken) url.searchParams.set('verify_token', d.verifyToken);
    const answer = buildAnswerPayload(analyseAnswer({ humanMessage: text, chatHistory: [] }).body, {
      requestId,
      droidId,
      customerId: TEST_CUSTOMER,
      executionTime: 5,
      timestamp: at,
    });
    for (const p of [url ? postJson(url.toString(), forwarded) : undefined, postJson(d.answerUrl, answer)]) {
      if (!p) continue;
      pending.add(p);
      void p.finally(() => pending.delete(p));
    }
  };
  app.post(`${prefix}/get-droid-answer-async`, async (request_, reply) => {
    stats.asyncRequests += 1;
    const refusal = options.asyncRefusal;
    if (refusal) {
      if (typeof refusal.body === 'string') return reply.code(refusal.status).type('text/plain').send(refusal.body);
      return reply.code(refusal.status).send(refusal.body);
    }
    stats.asyncAcked += 1;
    const requestId = `tpa-${randomBytes(12).toString('hex').slice(0, 22)}`;
    const content = (request_.body as { humanMessage?: { content?: unknown } } | null)?.humanMessage?.content;
    if (typeof content === 'string') setImmediate(() => deliver(requestId, content));
    return {
      success: true,
      requestId,
      message: 'Answer request queued. Response will be sent to your configured webhook.',
    };
  });
  app.post(`${prefix}/send`, async () => {
    stats.sends += 1;
    return { success: true, mid: `ddtp-${randomBytes(8).toString('hex')}` };
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    token,
    droidId,
    stats,
    async close() {
      await app.close();
      await Promise.all(pending);
    },
  };
}
