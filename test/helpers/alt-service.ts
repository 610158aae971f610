/**
 * A second implementation of the Message Endpoint API specification, for tests (a
 * test that passes against it and the emulator alike asserts the spec, not the emulator): Fastify
 * on 127.0.0.1 port 0. It keeps to what the spec and the service's docs show (auth 401/403, the
 * async ack and its three 400s word for word, the answer payload, `{error, message}` errors,
 * `{conversations, total}`, `?secret=` on the answer webhook, MessageForwarding with
 * `?verify_token=`, IntentWebhookRequest with the secret in the body) and makes *other* choices
 * wherever the spec says "not shown":
 *
 * - channels `{data: [{channelId, platform, displayName, enabled}], count}`;
 * - messages `{messages: [{mid, type, content: {type, value}, createdAt}]}` (no customerId, no total);
 * - customer: every named field, of other types (customerId and channelId strings, externalId a
 *   number, unknown values null), plus fields of its own;
 * - send `{queued, messageId}`; setBot `{ok}`; get-image-alt `{alt, took_ms, meta}`, 422 for an
 *   unsupported extension; ask adds `usage`, and answers a prompt that asks for JSON with JSON
 *   text of its own keys (`{"sentiment": "neutral"}`), never those of a template the prompt
 *   spells out (the spec promises JSON text, not its keys);
 * - the sync endpoint accepts **only a string** humanMessage (as the endpoint page shows): an
 *   object gets 400 `Invalid humanMessage format`; its answer has no requestId;
 * - the async endpoint checks its settings (webhook, test customer) before the message, in the
 *   docs' order; requestIds are `tpa-` + 20 characters; every `duplicateEvery`-th answer is
 *   delivered twice; cart lines are `{sku, title, qty, unitPrice, lineTotal}`;
 * - a slow droid (`syncDelayMs`), one that keeps only the last of consecutive human turns
 *   (`lastHumanTurnOnly`) and one that answers a burst's first message later than the rest
 *   (`burstFirstLateMs`): the planted defects of a burst (docs/bursts.md), off by default;
 * - the answer webhook's retry policy (`answerRetry`, off by default: one attempt): a constant
 *   delay between attempts (not a backoff), retried on a non-2xx answer, a network error or no
 *   answer within its own attempt timeout;
 * - another shop: its own catalogue (other products, prices in USD, another shipping rule),
 *   its own intent names (`buy`, `question`, ...: each droid's owner names them; none for a
 *   greeting, so a greeting's `intents` is an empty list) and its
 *   own wording of the answer. The extraction (address, contact details, quantities, languages)
 *   comes from the emulator's rule engine (src/emulator/ai), so documented behaviour (an address
 *   in the message is parsed, the cart has a grand total in money format) holds, while every
 *   expectation about the demo shop's catalogue, intent names or wording (tagged `demo-shop` in
 *   scenarios/) fails here, as it would against any other droid.
 */
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyReply } from 'fastify';
import { Agent, request } from 'undici';
import type {
  ChatHistoryItem,
  ConversationMessage,
  IntentWebhookRequest,
  MessageForwarding,
} from '../../src/contract/index.js';
import {
  aiMessage,
  analyseAnswer,
  formatMoney,
  type AnswerBody,
  type Catalogue,
  type IntentDefinition,
} from '../../src/emulator/ai/index.js';
import { answerPrompt } from '../../src/emulator/ai/ask.js';

export interface AltServiceOptions {
  token?: string;
  /** Default 42. */
  droidId?: number;
  /** Default 5; null: 400 `Droid Missing Test Customer Id`. */
  testCustomerId?: number | null;
  /** null (default): 400 `thirdPartyAnswerWebhook is not configured...`. */
  answerWebhook?: { url: string; secret?: string } | null;
  messageWebhook?: { url: string; verifyToken?: string } | null;
  /** Every detected intent (or those named) is POSTed here with `secret` in the body. */
  intentWebhook?: { url: string; secret: string; intents?: string[] } | null;
  /** Before an answer (async webhook) or a bot reply to `send`, ms. Default 20. */
  answerDelayMs?: number;
  /** Every n-th answer webhook is delivered twice. Default 2; 0: never. */
  duplicateEvery?: number;
  /** Answer webhook retries: `attempts` in all, `delayMs` between them, `timeoutMs` per attempt. Default: one attempt, no timeout of its own. */
  answerRetry?: { attempts: number; delayMs: number; timeoutMs: number };
  /**
   * A droid saturating under load (capacity judged by answer quality): a sync answer takes
   * `answerMs`; one accepted with more than `degradeAbove` sync answers in progress (itself
   * included) is this shop's apology, with an empty cart and no intent, on time. Default: off.
   */
  saturation?: { answerMs: number; degradeAbove: number };
  /**
   * The shop it sells from: its products, prices and shipping rule (default ALT_CATALOGUE, six
   * products in USD). A catalogue whose price for a product differs from the shop's policy is a
   * droid that quotes a wrong price.
   */
  catalogue?: Catalogue;
  /** Before a sync answer, ms (a droid that answers in seconds, as the service does). Default 0. */
  syncDelayMs?: number;
  /**
   * Keeps only the last of consecutive human turns of a chat history (a chat template that
   * expects the roles to alternate): of a burst, it reads the last message alone. Default off.
   */
  lastHumanTurnOnly?: boolean;
  /**
   * A burst's first message answered later than the rest: when a message arrives whose history
   * ends in human turns, the answer to the first of them, if not sent yet, waits this much longer
   * (ms). Default off.
   */
  burstFirstLateMs?: number;
}

/** The alternative shop's catalogue: none of the demo shop's products, prices in USD. */
export const ALT_CATALOGUE: Catalogue = {
  currency: 'USD',
  shippingFee: 5,
  freeShippingThreshold: 100,
  products: [
    { name: 'Flannel shirt', price: 39, keywords: ['flannel shirt', 'flannel', 'shirt'] },
    { name: 'Wool beanie', price: 18, keywords: ['wool beanie', 'beanie', 'hat'] },
    { name: 'Rain jacket', price: 89, keywords: ['rain jacket', 'raincoat', 'jacket'] },
    { name: 'Hiking boots', price: 129, keywords: ['hiking boots', 'boots', 'shoes'] },
    { name: 'T-Shirt', price: 15, keywords: ['t-shirt', 'tshirt'] },
    { name: 'Canvas Bag', price: 22, keywords: ['canvas bag'] },
  ],
};

/**
 * The alternative droid's intents: the built-in detectors under names of its owner's choosing,
 * and none for a greeting (its owner configured none), so "Hello there!" gets `intents: []`: the
 * spec names the list, not that an answer raises an intent.
 */
const ALT_INTENTS: readonly IntentDefinition[] = [
  { name: 'unhappy', detects: ['complaint', 'return_request'], keywords: [] },
  { name: 'buy', detects: ['purchase'], keywords: [] },
  { name: 'question', detects: ['price_inquiry', 'product_inquiry', 'general_inquiry'], keywords: [] },
  { name: 'delivery', detects: ['shipping'], keywords: [] },
  { name: 'pay', detects: ['payment'], keywords: [] },
  { name: 'contact', detects: ['contact_update'], keywords: [] },
  { name: 'thank_you', detects: ['thanks'], keywords: [] },
];

/** The alternative shop's own wording: one short paragraph per fact, none of the demo shop's phrases. */
function altWording(body: AnswerBody): string[] {
  const cart = body.shoppingCart;
  const lines = cart.products.map((p) => `${p.count} x ${p.name}`);
  const a = body.addressParsing;
  const out = ['Thanks for your message to Alt Outfitters.'];
  if (lines.length > 0) out.push(`Your order: ${lines.join(', ')}. To pay: ${cart.grandTotal}.`);
  if (a.postal_code !== '' || a.city !== '')
    out.push(`Shipping to: ${[a.street_address, a.city, a.postal_code].filter((x) => x !== '').join(', ')}.`);
  return out;
}

export interface AltService {
  url: string;
  token: string;
  droidId: number;
  testCustomerId: number | null;
  /** What it saw and did. */
  stats: {
    syncObjectRefused: number;
    syncAnswered: number;
    asyncAccepted: number;
    answersPosted: number;
    duplicatesPosted: number;
    messagesForwarded: number;
    intentsPosted: number;
    /** Sync answers past `saturation.degradeAbove`. */
    degraded: number;
    refused: Record<number, number>;
  };
  /** The W3C Trace Context headers of every call, in order (path as received, `traceparent` and `tracestate` when sent). */
  traceHeaders: { path: string; traceparent?: string; tracestate?: string }[];
  close(): Promise<void>;
}

const WEBHOOK_NOT_CONFIGURED =
  'thirdPartyAnswerWebhook is not configured. Please set up the webhook URL in Settings > Integrations before using async answer endpoint.';
const STATUS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  422: 'Unprocessable Entity',
};
const id = (n: number): string =>
  randomBytes(n)
    .toString('base64url')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '0')
    .slice(0, n);

interface Customer {
  id: number;
  name: string;
  botEnabled: boolean;
  /** Newest first (spec 4). */
  conversation: ConversationMessage[];
}

export async function startAltService(options: AltServiceOptions = {}): Promise<AltService> {
  const token = options.token ?? `alt_${id(30)}`;
  const droidId = options.droidId ?? 42;
  const testCustomerId = options.testCustomerId === undefined ? 5 : options.testCustomerId;
  const delay = options.answerDelayMs ?? 20;
  const duplicateEvery = options.duplicateEvery ?? 2;
  const shop = options.catalogue ?? ALT_CATALOGUE;
  const customers = new Map<number, Customer>(
    [5, 9001, 9002].map((n) => [
      n,
      { id: n, name: n === 5 ? 'Test Customer' : `Customer ${n}`, botEnabled: true, conversation: [] },
    ]),
  );
  const stats: AltService['stats'] = {
    syncObjectRefused: 0,
    syncAnswered: 0,
    asyncAccepted: 0,
    answersPosted: 0,
    duplicatesPosted: 0,
    messagesForwarded: 0,
    intentsPosted: 0,
    degraded: 0,
    refused: {},
  };
  let syncInProgress = 0;
  const dispatcher = new Agent({ connections: 8 });
  const timers = new Set<NodeJS.Timeout>();
  const inFlight = new Set<Promise<unknown>>();
  let nextMessageId = 1;

  let closing = false;
  /** One attempt: true when answered 2xx in time. */
  const attempt = (u: URL, body: string, timeoutMs: number | undefined): Promise<boolean> =>
    request(u, {
      method: 'POST',
      dispatcher,
      headers: { 'content-type': 'application/json' },
      body,
      ...(timeoutMs !== undefined && { signal: AbortSignal.timeout(timeoutMs) }),
    })
      .then(async (res) => (await res.body.dump(), res.statusCode >= 200 && res.statusCode < 300))
      .catch(() => false);
  const post = (
    url: string,
    query: Record<string, string | undefined>,
    body: unknown,
    retry?: AltServiceOptions['answerRetry'],
  ): void => {
    const u = new URL(url);
    for (const [k, v] of Object.entries(query)) if (v) u.searchParams.set(k, v);
    const text = JSON.stringify(body);
    const p = (async () => {
      for (let n = 1; n <= (retry?.attempts ?? 1); n++) {
        if (closing) return;
        if (await attempt(u, text, retry?.timeoutMs)) return;
        if (retry && n < retry.attempts)
          await new Promise((resolve) => void setTimeout(resolve, retry.delayMs).unref());
      }
    })();
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p));
  };
  const after = (ms: number, fn: () => void): void => {
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    timers.add(t);
  };
  const later = (fn: () => void): void => after(delay, fn);
  /** The history this droid reads (`lastHumanTurnOnly`: a human turn followed by another is dropped). */
  const read = (history: ChatHistoryItem[]): ChatHistoryItem[] =>
    options.lastHumanTurnOnly
      ? history.filter((t, i) => t.type !== 'human' || (i + 1 < history.length && history[i + 1]!.type !== 'human'))
      : history;
  /** Answers not sent yet, by their conversation (history, then message), each with the extra wait a later message of its burst gave it. */
  const unsent = new Map<string, { extraMs: number }[]>();
  const keyOf = (history: readonly ChatHistoryItem[], message: string): string =>
    JSON.stringify([...history.map((t) => [t.type, t.content]), message]);
  const track = (history: readonly ChatHistoryItem[], message: string): (() => number) => {
    if (options.burstFirstLateMs === undefined) return () => 0;
    const key = keyOf(history, message);
    const entry = { extraMs: 0 };
    unsent.set(key, [...(unsent.get(key) ?? []), entry]);
    return () => {
      unsent.set(
        key,
        (unsent.get(key) ?? []).filter((e) => e !== entry),
      );
      return entry.extraMs;
    };
  };
  /** A later message of a burst arrived: the answer to the burst's first message waits burstFirstLateMs more. */
  const holdFirst = (history: readonly ChatHistoryItem[]): void => {
    if (options.burstFirstLateMs === undefined) return;
    let first = history.length;
    while (first > 0 && history[first - 1]!.type === 'human') first--;
    if (first === history.length) return;
    const entry = unsent.get(keyOf(history.slice(0, first), history[first]!.content))?.find((e) => e.extraMs === 0);
    if (entry) entry.extraMs = options.burstFirstLateMs;
  };
  const refuse = (reply: FastifyReply, status: number, message: string): FastifyReply => {
    stats.refused[status] = (stats.refused[status] ?? 0) + 1;
    return reply.code(status).send({ error: STATUS[status], message });
  };

  /** The documented answer payload, with this implementation's cart lines; intents POSTed. */
  const answer = (
    humanMessage: string,
    chatHistory: ChatHistoryItem[],
    customerId: number,
    requestId?: string,
  ): Record<string, unknown> => {
    const t0 = performance.now();
    const { body, facts } = analyseAnswer({ humanMessage, chatHistory: read(chatHistory) }, shop, ALT_INTENTS);
    const paragraphs = altWording(body);
    const hook = options.intentWebhook;
    for (const intent of hook ? body.intents.filter((i) => !hook.intents || hook.intents.includes(i)) : []) {
      const c = body.customerInsight.contact_info;
      const a = body.addressParsing;
      const intentBody: IntentWebhookRequest = {
        mid: `alt-${id(12)}`,
        customer_id: String(customerId),
        intent,
        address_parsing: {
          street_address: a.street_address,
          village_or_project: '',
          subdistrict: a.subdistrict,
          district: a.district,
          city: a.city,
          state: '',
          postal_code: a.postal_code,
          country: a.country,
        },
        payment_method: facts.paymentMethod,
        shopping_cart: { ...body.shoppingCart, unavailableCount: 0 },
        contact_info: {
          name: c.name,
          phone: c.phone,
          email: c.email,
          address: a.street_address,
          city: a.city,
          zipcode: a.postal_code,
          language: facts.language,
          languageName: body.customerInsight.user_language,
        },
        secret: hook!.secret,
        folder: '',
        e: '',
        product_type: '',
      };
      stats.intentsPosted += 1;
      post(hook!.url, {}, intentBody);
    }
    const products = body.shoppingCart.products.map((p) => ({
      sku: p.code,
      title: p.name,
      qty: p.count,
      unitPrice: formatMoney(p.price, shop.currency),
      lineTotal: formatMoney(p.total, shop.currency),
    }));
    return {
      ...(requestId !== undefined && { requestId }),
      droidId,
      customerId,
      responses: paragraphs.map(aiMessage),
      addressParsing: body.addressParsing,
      customerInsight: body.customerInsight,
      shoppingCart: { ...body.shoppingCart, products },
      customExtractedInfo: {},
      answer: paragraphs.join('\n\n'),
      intents: body.intents,
      executionTime: Math.round(performance.now() - t0) + delay,
      timestamp: new Date().toISOString(),
    };
  };

  /** Stores a message (newest first) and forwards it as documented. */
  const store = (c: Customer, type: 'human' | 'ai', content: string): ConversationMessage => {
    const at = new Date().toISOString();
    const image = /^https?:\/\/\S+\.(jpe?g|png|gif|webp)$/i.test(content);
    const m: ConversationMessage = {
      id: nextMessageId++,
      type,
      contentType: image ? 'image' : 'text',
      content,
      alt: '',
      note: null,
      createdAt: at,
      updatedAt: at,
    };
    c.conversation.unshift(m);
    const hook = options.messageWebhook;
    if (hook) {
      const body: MessageForwarding = {
        mid: `ddtp-${id(14)}`,
        chatId: 700 + c.id,
        customerId: c.id,
        droidId,
        channelId: 7,
        type,
        content: { type: image ? 'image' : 'text', value: content },
        createdAt: at,
      };
      stats.messagesForwarded += 1;
      post(hook.url, { verify_token: hook.verifyToken }, body);
    }
    return m;
  };

  const traceHeaders: AltService['traceHeaders'] = [];
  const app = Fastify({ logger: false });
  await app.register(
    async (api) => {
      api.addHook('onRequest', async (req, reply) => {
        const { traceparent, tracestate } = req.headers as Record<string, string | undefined>;
        traceHeaders.push({
          path: req.url,
          ...(traceparent !== undefined && { traceparent }),
          ...(tracestate !== undefined && { tracestate }),
        });
        const auth = req.headers.authorization;
        if (auth !== `Bearer ${token}`) return refuse(reply, 401, 'Invalid API key');
        if ((req.params as { droidId?: string }).droidId !== String(droidId))
          return refuse(reply, 403, 'Access denied');
      });
      const customerOf = (raw: unknown): Customer | undefined => customers.get(Number(raw));

      api.get('/channels', async () => ({
        data: [
          { channelId: 'ch_line_1', platform: 'LINE', displayName: 'Alt Shop LINE', enabled: true },
          { channelId: 'ch_web_7', platform: 'WEB', displayName: 'Alt Shop web chat', enabled: true },
        ],
        count: 2,
      }));
      api.get('/messages/:customerId', async (req, reply) => {
        const c = customerOf((req.params as { customerId: string }).customerId);
        if (!c) return refuse(reply, 403, 'Access denied');
        return {
          messages: c.conversation.map((m) => ({
            mid: `ddtp-${m.id}`,
            type: m.type,
            content: { type: m.contentType, value: m.content },
            createdAt: m.createdAt,
          })),
        };
      });
      api.get('/customer/:customerId', async (req, reply) => {
        const c = customerOf((req.params as { customerId: string }).customerId);
        if (!c) return refuse(reply, 403, 'Access denied');
        return {
          customerId: String(c.id),
          externalId: 880000 + c.id,
          channelId: '7',
          botEnabled: c.botEnabled,
          avatar: null,
          socialName: c.name,
          name: c.name,
          phone: null,
          address: null,
          city: null,
          zipcode: null,
          email: `customer${c.id}@alt.example`,
          language: 'English',
          tags: [],
          createdAt: '2025-06-01T00:00:00.000Z',
        };
      });
      api.get('/customer/:customerId/conversations', async (req, reply) => {
        const c = customerOf((req.params as { customerId: string }).customerId);
        if (!c) return refuse(reply, 403, 'Access denied');
        return { conversations: c.conversation, total: c.conversation.length };
      });
      api.post('/customer/:customerId', async (req, reply) => {
        const c = customerOf((req.params as { customerId: string }).customerId);
        if (!c) return refuse(reply, 403, 'Access denied');
        const botEnabled = (req.body as { botEnabled?: unknown } | null)?.botEnabled;
        if (typeof botEnabled !== 'boolean') return refuse(reply, 400, 'botEnabled must be a boolean');
        c.botEnabled = botEnabled;
        return { ok: true };
      });
      api.post('/customer/:customerId/ask', async (req, reply) => {
        const c = customerOf((req.params as { customerId: string }).customerId);
        if (!c) return refuse(reply, 403, 'Access denied');
        const prompt = (req.body as { prompt?: unknown } | null)?.prompt;
        if (typeof prompt !== 'string' || prompt.length === 0 || prompt.length > 500)
          return refuse(reply, 400, 'prompt must be 1 to 500 characters');
        // JSON when JSON is asked for (spec 5), but with this droid's own keys: a template the
        // prompt spells out (`{ "status": ... }`) is not followed.
        const ownKeys = prompt.replace(/\{[^{}]*\}/g, '');
        return { answer: answerPrompt(ownKeys, c.conversation, shop), usage: { tokens: 42 } };
      });
      api.post('/send', async (req, reply) => {
        const b = (req.body ?? {}) as { customerId?: unknown; humanMessage?: unknown };
        const c = customerOf(b.customerId);
        if (!c) return refuse(reply, 403, 'Access denied');
        if (typeof b.humanMessage !== 'string' || b.humanMessage === '')
          return refuse(reply, 400, 'humanMessage must be a non-empty string');
        const history: ChatHistoryItem[] = c.conversation
          .slice(0, 20)
          .reverse()
          .map((m) => ({ type: m.type === 'ai' ? 'ai' : 'human', content: m.content }));
        const m = store(c, 'human', b.humanMessage);
        if (c.botEnabled) {
          const text = b.humanMessage;
          later(() => {
            if (c.botEnabled) store(c, 'ai', String(answer(text, history, c.id).answer));
          });
        }
        return { queued: true, messageId: m.id };
      });
      api.post('/get-image-alt', async (req, reply) => {
        const imageUrl = (req.body as { imageUrl?: unknown } | null)?.imageUrl;
        if (typeof imageUrl !== 'string' || imageUrl === '') return refuse(reply, 400, 'imageUrl is required');
        if (!/\.(jpe?g|png|gif|webp)$/i.test(new URL(imageUrl, 'http://x').pathname))
          return refuse(reply, 422, 'Unsupported image type');
        const name = decodeURIComponent(imageUrl.split('/').pop() ?? '')
          .replace(/\.\w+$/, '')
          .replace(/[-_]+/g, ' ');
        return { alt: `A photo of ${name}`, took_ms: 12, meta: { requestId: `img_${id(10)}` } };
      });
      api.post('/get-droid-answer', async (req, reply) => {
        const b = (req.body ?? {}) as { humanMessage?: unknown; chatHistory?: unknown };
        if (typeof b.humanMessage !== 'string') {
          if (typeof b.humanMessage === 'object') stats.syncObjectRefused += 1;
          return refuse(reply, 400, 'Invalid humanMessage format');
        }
        stats.syncAnswered += 1;
        const history = Array.isArray(b.chatHistory) ? (b.chatHistory as ChatHistoryItem[]) : [];
        holdFirst(history);
        const held = track(history, b.humanMessage);
        const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
        if (options.syncDelayMs) await wait(options.syncDelayMs);
        const extra = held();
        if (extra > 0) await wait(extra);
        const sat = options.saturation;
        if (!sat) return answer(b.humanMessage, history, testCustomerId ?? 0);
        syncInProgress += 1;
        const degrade = syncInProgress > sat.degradeAbove;
        await new Promise((resolve) => setTimeout(resolve, sat.answerMs));
        syncInProgress -= 1;
        if (!degrade) return answer(b.humanMessage, history, testCustomerId ?? 0);
        stats.degraded += 1;
        const sorry = 'Alt Outfitters is busy. We will get back to you.';
        return {
          ...answer('', [], testCustomerId ?? 0),
          responses: [aiMessage(sorry)],
          answer: sorry,
          intents: [],
          shoppingCart: { products: [], shippingFee: '5', grandTotal: formatMoney(0, shop.currency) },
        };
      });
      api.post('/get-droid-answer-async', async (req, reply) => {
        // The docs' order: the settings first, then the message.
        const hook = options.answerWebhook;
        if (!hook) return refuse(reply, 400, WEBHOOK_NOT_CONFIGURED);
        if (testCustomerId === null) return refuse(reply, 400, 'Droid Missing Test Customer Id');
        const hm = (req.body as { humanMessage?: unknown } | null)?.humanMessage as { content?: unknown } | undefined;
        if (typeof hm !== 'object' || hm === null || typeof hm.content !== 'string')
          return refuse(reply, 400, 'Invalid humanMessage format');
        const history = (req.body as { chatHistory?: unknown }).chatHistory;
        const requestId = `tpa-${id(20)}`;
        stats.asyncAccepted += 1;
        const n = stats.asyncAccepted;
        const content = hm.content;
        const sent = Array.isArray(history) ? (history as ChatHistoryItem[]) : [];
        holdFirst(sent);
        const held = track(sent, content);
        const deliver = (): void => {
          const payload = answer(content, sent, testCustomerId, requestId);
          const times = duplicateEvery > 0 && n % duplicateEvery === 0 ? 2 : 1;
          for (let i = 0; i < times; i++) post(hook.url, { secret: hook.secret }, payload, options.answerRetry);
          stats.answersPosted += 1;
          stats.duplicatesPosted += times - 1;
        };
        later(() => {
          const extra = held();
          if (extra > 0) after(extra, deliver);
          else deliver();
        });
        return {
          success: true,
          requestId,
          message: 'Answer request queued. Response will be sent to your configured webhook.',
        };
      });
    },
    { prefix: '/api/droids/:droidId/endpoint' },
  );
  app.setNotFoundHandler((req, reply) => refuse(reply, 404, `No route ${req.method} ${req.url.split('?')[0]}`));
  await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`,
    token,
    droidId,
    testCustomerId,
    stats,
    traceHeaders,
    async close() {
      closing = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
      await Promise.allSettled([...inFlight]);
      await app.close();
      await dispatcher.close();
    },
  };
}
