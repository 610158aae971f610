/**
 * A small real Fastify server on 127.0.0.1:0 whose behaviour each test sets, recording requests.
 */
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';

interface SeenRequest {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export type Behaviour = (req: FastifyRequest, reply: FastifyReply) => unknown;

export interface FixtureServer {
  url: string;
  seen: SeenRequest[];
  behave(fn: Behaviour): void;
  close(): Promise<void>;
}

export async function startFixtureServer(): Promise<FixtureServer> {
  const app = Fastify({ forceCloseConnections: true });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));
  const seen: SeenRequest[] = [];
  let behaviour: Behaviour = (_req, reply) => reply.code(200).send({});
  app.all('/*', async (req, reply) => {
    seen.push({
      method: req.method,
      url: req.url,
      headers: req.headers,
      body: typeof req.body === 'string' ? req.body : '',
    });
    return behaviour(req, reply);
  });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    url,
    seen,
    behave(fn) {
      behaviour = fn;
    },
    close: () => app.close(),
  };
}
