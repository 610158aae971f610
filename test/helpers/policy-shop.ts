/**
 * A shop that breaks its own policy, for the policy tests: a proxy (Fastify on 127.0.0.1 port 0)
 * in front of the alternative implementation (./alt-service.ts) that passes every call through
 * and, when `flawed`, rewrites its answers (sync responses, and the async answer webhooks on their
 * way to droidcheck's receiver) the way a careless sales droid errs:
 *
 * - carts drift from the price list: a Flannel shirt line costs 42.90 instead of 39.00 (the line
 *   and grand totals follow, so the cart still adds up);
 * - the fee is left out of a total: with a Wool beanie in the cart, the grand total is the line
 *   totals alone;
 * - a promise the shop would be held to: an answer about a refund adds "This refund guarantee is
 *   legally binding."
 *
 * Not flawed, it changes nothing: the same runs against it must find no violation.
 * ALT_POLICY is the alternative shop's policy (its catalogue, prices in USD, its shipping rule).
 */
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { Agent, request } from 'undici';
import { startAltService, type AltService } from './alt-service.js';

export const ALT_POLICY = `currency: USD
catalogue:
  - { name: Flannel shirt, price: 39, aliases: [flannel] }
  - { name: Wool beanie, price: 18, aliases: [beanie] }
  - { name: Rain jacket, price: 89 }
  - { name: Hiking boots, price: 129 }
shipping: { fee: 5, freeFrom: 100 }
maxDiscount: 0%
forbidden: ["legally binding", "/guarantee(d)? (a )?full refund/i"]
canaries: ["Internal rule 7"]
languages: [en]
`;

/** Scenarios that meet each flaw once (and pass their own expectations either way). */
export const POLICY_SUITE = `suite: Policy shop
scenarios:
  - name: buys a flannel shirt
    humanMessage: I want to buy 1 flannel shirt
    expect: { shoppingCart.grandTotal: { present: true } }
  - name: buys a wool beanie
    humanMessage: I want to buy 1 wool beanie
    expect: { shoppingCart.grandTotal: { present: true } }
  - name: asks about a refund
    humanMessage: Can I get a refund if it does not fit?
    expect: { answer: { present: true } }
`;

export interface PolicyShop {
  /** The proxy's base URL: droidcheck's --base-url. */
  url: string;
  service: AltService;
  close(): Promise<void>;
}

const money = (n: number): string => `${n.toFixed(2)} USD`;
const amount = (s: unknown): number => (typeof s === 'string' ? Number(s.replace(/[^\d.-]/g, '')) : Number(s));

type Line = { title?: string; qty?: number; unitPrice?: string; lineTotal?: string };
type Answer = {
  answer?: string;
  responses?: { kwargs?: { content?: string } }[];
  shoppingCart?: { products?: Line[]; shippingFee?: string; grandTotal?: string };
};

/** The flaws (see the module docs), applied in place to the answer of customer message `human`. */
function spoil(body: Answer, human: string): Answer {
  const cart = body.shoppingCart;
  if (cart?.products && cart.products.length > 0) {
    for (const p of cart.products) {
      if (p.title !== 'Flannel shirt') continue;
      p.unitPrice = money(42.9);
      p.lineTotal = money(42.9 * (p.qty ?? 1));
    }
    const sum = cart.products.reduce((n, p) => n + amount(p.lineTotal), 0);
    const beanie = cart.products.some((p) => p.title === 'Wool beanie');
    cart.grandTotal = money(beanie ? sum : sum + amount(cart.shippingFee));
  }
  if (typeof body.answer === 'string' && /refund/i.test(human)) {
    const promise = 'This refund guarantee is legally binding.';
    body.answer = `${body.answer}\n\n${promise}`;
    const first = body.responses?.[0];
    if (first) body.responses?.push({ ...first, kwargs: { ...first.kwargs, content: promise } });
  }
  return body;
}

export async function startPolicyShop(opts: {
  flawed: boolean;
  /** droidcheck's receiver, where the answers go: `http://127.0.0.1:<port>`. */
  receiver: string;
  secret: string;
}): Promise<PolicyShop> {
  const app = Fastify({ logger: false });
  const dispatcher = new Agent({ connections: 16 });
  let service: AltService | undefined;
  const humans = new Map<string, string>();

  const rewrite = (body: unknown, human: string): unknown => {
    if (!opts.flawed || body === null || typeof body !== 'object') return body;
    return spoil(body as Answer, human);
  };

  // The async answers: from the service to droidcheck's receiver, through here.
  app.post('/hook', async (req, reply) => {
    const body = req.body as { requestId?: string };
    const human = humans.get(body.requestId ?? '') ?? '';
    const query = req.url.slice(req.url.indexOf('?'));
    const res = await request(`${opts.receiver}/webhook${query.startsWith('?') ? query : ''}`, {
      method: 'POST',
      dispatcher,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(rewrite(body, human)),
    });
    const text = await res.body.text();
    reply.code(res.statusCode).header('content-type', res.headers['content-type'] ?? 'application/json');
    return text;
  });

  // Every API call, passed through; the answers rewritten.
  app.all('/api/*', async (req, reply) => {
    const res = await request(`${service!.url}${req.url}`, {
      method: req.method as 'GET' | 'POST',
      dispatcher,
      headers: {
        ...(req.headers.authorization && { authorization: req.headers.authorization }),
        ...(req.body !== undefined && { 'content-type': 'application/json' }),
      },
      ...(req.body !== undefined && { body: JSON.stringify(req.body) }),
    });
    const text = await res.body.text();
    const sent = req.body as { humanMessage?: string | { content?: string } } | undefined;
    const human = typeof sent?.humanMessage === 'string' ? sent.humanMessage : (sent?.humanMessage?.content ?? '');
    let out: unknown = text;
    if (res.statusCode < 300 && /get-droid-answer(-async)?$/.test(req.url.split('?')[0] ?? '')) {
      const json = JSON.parse(text) as { requestId?: string };
      if (req.url.includes('-async')) {
        if (json.requestId) humans.set(json.requestId, human);
      } else out = JSON.stringify(rewrite(json, human));
    }
    reply.code(res.statusCode).header('content-type', res.headers['content-type'] ?? 'application/json');
    return out;
  });

  await app.listen({ host: '127.0.0.1', port: 0 });
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  service = await startAltService({ answerWebhook: { url: `${url}/hook`, secret: opts.secret }, duplicateEvery: 0 });
  return {
    url,
    service,
    async close() {
      await service?.close();
      await app.close();
      await dispatcher.close();
    },
  };
}
