/**
 * The RSS bench's anchor target (bench/rss.js): a bare node:http server that acknowledges
 * get-droid-answer-async with a fresh requestId at once and POSTs the answer webhook to
 * --webhook-url after --delay-ms (one timer per request). Reports accepted counts on IPC 'stats'.
 *   node bench/rss-anchor-server.js --webhook-url URL --delay-ms MS   (prints nothing; IPC: {baseUrl})
 */
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:http';
import { Agent, request } from 'undici';
import { arg, argString } from './lib.js';

const webhookUrl = argString('webhook-url');
const delayMs = arg('delay-ms', 600_000);
const dispatcher = new Agent({ connections: 64 });
let accepted = 0;
let delivered = 0;
const answer = (requestId) =>
  JSON.stringify({
    requestId,
    droidId: 1,
    customerId: 1,
    answer: { content: 'one silk scarf, 2 pieces', type: 'droid' },
  });

const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    const requestId = randomUUID();
    accepted++;
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ requestId }));
    setTimeout(() => {
      request(webhookUrl, {
        method: 'POST',
        body: answer(requestId),
        headers: { 'content-type': 'application/json' },
        dispatcher,
      })
        .then((r) => r.body.dump())
        .then(
          () => delivered++,
          () => {},
        );
    }, delayMs);
  });
});
server.listen(0, '127.0.0.1');
await once(server, 'listening');
process.send({ baseUrl: `http://127.0.0.1:${server.address().port}` });
process.on('message', (m) => {
  if (m === 'stats') process.send({ accepted, delivered });
  if (m === 'close') process.exit(0);
});
