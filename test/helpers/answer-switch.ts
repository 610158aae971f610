/**
 * One bot in two versions at one address, for tests of what `compare` says changed in the
 * answers: a Fastify proxy on 127.0.0.1 port 0 in front of a service (test/helpers/alt-service.ts),
 * passing every request and response through unchanged while `version` is `a`. Switched to `b`,
 * it edits the synchronous answers (get-droid-answer) that hold a cart, as a new release of a
 * droid might: the text says `Total due:` where it said `To pay:`, the intents gain `upsell`, the
 * first cart line's quantity is one more, and the parsed city is written in capitals. An answer
 * without a cart (a greeting) is the same in both versions. The target (base URL, droid id) is the
 * same in both, so two runs of one suite against it are a before and after for `compare`.
 */
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { request } from 'undici';

export interface AnswerSwitch {
  url: string;
  /** Which version answers the next request. */
  version: 'a' | 'b';
  close(): Promise<void>;
}

type Payload = Record<string, unknown> & {
  answer?: string;
  intents?: string[];
  shoppingCart?: { products?: Record<string, unknown>[] };
  addressParsing?: Record<string, string>;
};

/** Version b of an answer payload (module docs); answers without a cart line pass unchanged. */
function versionB(p: Payload): Payload {
  const lines = p.shoppingCart?.products ?? [];
  const first = lines[0];
  if (!first) return p;
  const qty = Object.entries(first).find(([, v]) => typeof v === 'number')?.[0];
  return {
    ...p,
    answer: (p.answer ?? '').replace('To pay:', 'Total due:'),
    intents: [...(p.intents ?? []), 'upsell'],
    shoppingCart: {
      ...p.shoppingCart,
      products: [qty ? { ...first, [qty]: (first[qty] as number) + 1 } : first, ...lines.slice(1)],
    },
    ...(p.addressParsing && {
      addressParsing: { ...p.addressParsing, city: (p.addressParsing.city ?? '').toUpperCase() },
    }),
  };
}

/** Starts the proxy in front of `upstream` (a base URL), version `a`. */
export async function startAnswerSwitch(upstream: string): Promise<AnswerSwitch> {
  const app = Fastify();
  // Bodies pass as bytes (JSON too): what the client sent reaches the service unchanged.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
  const sw = { version: 'a' as 'a' | 'b' };
  app.all('/*', async (req, reply) => {
    const headers = { ...req.headers } as Record<string, string>;
    delete headers.host;
    delete headers['content-length'];
    const res = await request(new URL(req.url, upstream), {
      method: req.method as 'GET',
      headers,
      ...(Buffer.isBuffer(req.body) && { body: req.body }),
    });
    const text = await res.body.text();
    const edit =
      sw.version === 'b' && req.method === 'POST' && req.url.endsWith('/get-droid-answer') && res.statusCode === 200;
    reply.code(res.statusCode).header('content-type', String(res.headers['content-type'] ?? 'application/json'));
    return edit ? JSON.stringify(versionB(JSON.parse(text) as Payload)) : text;
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get version() {
      return sw.version;
    },
    set version(v) {
      sw.version = v;
    },
    close: () => app.close(),
  };
}
