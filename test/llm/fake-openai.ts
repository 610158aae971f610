/**
 * An OpenAI-compatible server for the tests (no test calls a paid model): Fastify on 127.0.0.1 port
 * 0 with `POST /v1/chat/completions` and `POST /v1/embeddings`. Deterministic, scriptable per test
 * (`onChat`, `onEmbeddings`), recording every request (path, headers, body).
 *
 * Default answers: a passing verdict `{"pass": true, "score": 1, "reason": "meets the rubric"}`,
 * and embeddings from `embedText` (hashed character trigrams, 64 dimensions): identical texts
 * have cosine similarity 1, unrelated ones much less.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';

interface RecordedRequest {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Record<string, unknown>;
}

/** What one request is answered with. */
export interface FakeReply {
  status?: number;
  /** Chat: the message content. */
  content?: string | null;
  /** A raw body instead of the usual one (embeddings, errors). */
  body?: unknown;
  headers?: Record<string, string>;
  /** Keep the request open until the client gives up. */
  hang?: boolean;
  usage?: { prompt_tokens: number; completion_tokens?: number };
}

export interface ChatBody {
  model: string;
  temperature?: number;
  messages: { role: string; content: string }[];
}

export interface FakeOpenAi {
  /** Base URL with `/v1`, as OPENAI_BASE_URL. */
  url: string;
  requests: RecordedRequest[];
  chatRequests(): ChatBody[];
  embeddingRequests(): { model: string; input: string[] }[];
  /** Answers of chat completions; `n` counts chat requests from 1. */
  onChat(handler: (body: ChatBody, n: number) => FakeReply): void;
  onEmbeddings(handler: (body: { model: string; input: string[] }, n: number) => FakeReply): void;
  /** The `GET /v1/models` listing (default: no models); `body` replaces the whole answer. */
  onModels(handler: () => FakeReply & { ids?: string[] }): void;
  /** Requests being answered right now, and the most at once. */
  inFlight(): { now: number; max: number };
  close(): Promise<void>;
}

const DIMENSIONS = 64;

/** FNV-1a of a string, 32 bits. */
function fnv(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** A deterministic embedding: counts of hashed character trigrams of the lower-cased text. */
export function embedText(text: string): number[] {
  const v = new Array<number>(DIMENSIONS).fill(0);
  const t = `  ${text.toLowerCase()}  `;
  for (let i = 0; i + 3 <= t.length; i++) {
    const d = fnv(t.slice(i, i + 3)) % DIMENSIONS;
    v[d] = (v[d] ?? 0) + 1;
  }
  return v;
}

export const PASS_VERDICT = '{"pass": true, "score": 1, "reason": "meets the rubric"}';

export async function startFakeOpenAi(): Promise<FakeOpenAi> {
  const app: FastifyInstance = Fastify({ logger: false, forceCloseConnections: true });
  const requests: RecordedRequest[] = [];
  let chatN = 0;
  let embN = 0;
  let now = 0;
  let max = 0;
  let chat: (body: ChatBody, n: number) => FakeReply = () => ({ content: PASS_VERDICT });
  let embeddings: (body: { model: string; input: string[] }, n: number) => FakeReply = () => ({});
  let models: () => FakeReply & { ids?: string[] } = () => ({ ids: [] });

  const answer = async (
    reply: import('fastify').FastifyReply,
    r: FakeReply,
    normal: () => unknown,
    onClose: Promise<void>,
  ) => {
    if (r.hang) {
      await onClose;
      return reply;
    }
    for (const [k, v] of Object.entries(r.headers ?? {})) reply.header(k, v);
    return reply.code(r.status ?? 200).send(r.body !== undefined ? r.body : normal());
  };

  app.post('/v1/chat/completions', async (request, reply) => {
    const body = request.body as ChatBody;
    requests.push({
      path: '/v1/chat/completions',
      headers: request.headers,
      body: body as unknown as Record<string, unknown>,
    });
    now += 1;
    max = Math.max(max, now);
    const closed = new Promise<void>((resolve) => request.raw.once('close', () => resolve()));
    try {
      const r = chat(body, ++chatN);
      const usage = r.usage ?? { prompt_tokens: 100, completion_tokens: 20 };
      return await answer(
        reply,
        r,
        () => ({
          id: `chatcmpl-${chatN}`,
          object: 'chat.completion',
          created: 1_700_000_000,
          model: body.model,
          choices: [
            {
              index: 0,
              message: { role: 'assistant', content: r.content === undefined ? PASS_VERDICT : r.content },
              finish_reason: 'stop',
            },
          ],
          usage: {
            prompt_tokens: usage.prompt_tokens,
            completion_tokens: usage.completion_tokens ?? 0,
            total_tokens: usage.prompt_tokens + (usage.completion_tokens ?? 0),
          },
        }),
        closed,
      );
    } finally {
      now -= 1;
    }
  });

  app.post('/v1/embeddings', async (request, reply) => {
    const raw = request.body as { model: string; input: string | string[] };
    const body = { model: raw.model, input: Array.isArray(raw.input) ? raw.input : [raw.input] };
    requests.push({
      path: '/v1/embeddings',
      headers: request.headers,
      body: raw as unknown as Record<string, unknown>,
    });
    now += 1;
    max = Math.max(max, now);
    const closed = new Promise<void>((resolve) => request.raw.once('close', () => resolve()));
    try {
      const r = embeddings(body, ++embN);
      const tokens = r.usage?.prompt_tokens ?? body.input.reduce((n, t) => n + Math.ceil(t.length / 4), 0);
      return await answer(
        reply,
        r,
        () => ({
          object: 'list',
          model: body.model,
          data: body.input.map((t, index) => ({ object: 'embedding', index, embedding: embedText(t) })),
          usage: { prompt_tokens: tokens, total_tokens: tokens },
        }),
        closed,
      );
    } finally {
      now -= 1;
    }
  });

  app.get('/v1/models', async (request, reply) => {
    requests.push({ path: '/v1/models', headers: request.headers, body: {} });
    const r = models();
    const closed = new Promise<void>((resolve) => request.raw.once('close', () => resolve()));
    return answer(
      reply,
      r,
      () => ({
        object: 'list',
        data: (r.ids ?? []).map((id) => ({ id, object: 'model', created: 1_700_000_000, owned_by: 'fake' })),
      }),
      closed,
    );
  });

  await app.listen({ host: '127.0.0.1', port: 0 });
  const port = (app.server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    chatRequests: () =>
      requests.filter((r) => r.path === '/v1/chat/completions').map((r) => r.body as unknown as ChatBody),
    embeddingRequests: () =>
      requests
        .filter((r) => r.path === '/v1/embeddings')
        .map((r) => ({
          model: String(r.body.model),
          input: (Array.isArray(r.body.input) ? r.body.input : [r.body.input]) as string[],
        })),
    onChat: (h) => void (chat = h),
    onEmbeddings: (h) => void (embeddings = h),
    onModels: (h) => void (models = h),
    inFlight: () => ({ now, max }),
    close: () => app.close(),
  };
}

/** The marker the simulated customer answers to end its conversation (src/llm/simulator.ts). */
export const STOP = '###STOP###';

/** True for a request of the simulated customer (its system message), false for the judge's. */
export function isCustomerRequest(body: ChatBody): boolean {
  return body.messages[0]?.role === 'system' && body.messages[0].content.startsWith('You are role-playing a customer');
}

/**
 * The customer's lines as an `onChat` handler: the n-th line (counting the customer's own
 * earlier lines, sent back as `assistant` messages) whatever the call order, then `###STOP###`.
 * Requests that are not the customer's (the judge's) get `other` (default: a passing verdict).
 * `lines` may hold `null` for an empty answer.
 */
export function playCustomer(
  lines: readonly (string | null)[],
  other: (body: ChatBody, n: number) => FakeReply = () => ({ content: PASS_VERDICT }),
): (body: ChatBody, n: number) => FakeReply {
  return (body, n) => {
    if (!isCustomerRequest(body)) return other(body, n);
    const said = body.messages.filter((m) => m.role === 'assistant').length;
    return { content: said < lines.length ? lines[said]! : STOP };
  };
}
