/**
 * The RSS bench's anchor generator (bench/rss.js): the least a load generator holds per pending
 * async request. An undici Agent posts get-droid-answer-async at a constant open rate; each
 * request then waits on a promise kept in a Map under its requestId, which a bare node:http
 * receiver on --port resolves when the webhook arrives. No histogram, no records, no report.
 *   node bench/rss-anchor-client.js --base-url URL --port P --rate R --count N [--start-ms MS]
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import { Agent } from 'undici';
import { arg, argString, ASYNC_BODY } from './lib.js';

const baseUrl = argString('base-url');
const port = arg('port', 0);
const rate = arg('rate', 1000);
const count = arg('count', 10_000);
const startMs = arg('start-ms', 0);
const waiting = new Map(); // requestId -> resolve
globalThis.__benchPending = () => waiting.size;

const receiver = createServer((req, res) => {
  let raw = '';
  req.setEncoding('utf8');
  req.on('data', (c) => (raw += c));
  req.on('end', () => {
    let id;
    try {
      id = JSON.parse(raw).requestId;
    } catch {}
    const resolve = waiting.get(id);
    if (resolve) {
      waiting.delete(id);
      resolve(raw);
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
});
receiver.listen(port, '127.0.0.1');
await once(receiver, 'listening');

const dispatcher = new Agent({ connections: 256, keepAliveTimeout: 30_000 });
const path = '/api/droids/1/endpoint/get-droid-answer-async';
const headers = { 'content-type': 'application/json' };
let _answered = 0;

/** The acknowledgement's requestId (the response is garbage once this returns). */
async function ack() {
  const res = await dispatcher.request({ origin: baseUrl, path, method: 'POST', headers, body: ASYNC_BODY });
  return (await res.body.json()).requestId;
}

async function one() {
  try {
    const requestId = await ack();
    await new Promise((resolve) => waiting.set(requestId, resolve));
    _answered++;
  } catch {}
}

await new Promise((r) => setTimeout(r, startMs));
const t0 = performance.now();
let sent = 0;
const tick = () => {
  const now = performance.now();
  while (sent < count && t0 + (sent * 1000) / rate <= now) {
    sent++;
    void one();
  }
  if (sent < count) setTimeout(tick, Math.max(0, t0 + (sent * 1000) / rate - performance.now()));
};
tick();
