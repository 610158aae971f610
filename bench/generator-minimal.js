/**
 * The generator bench's anchor (bench/generator.js): the least a load generator must do per
 * async answer. An undici Pool submits get-droid-answer-async at a constant open rate (a timer
 * armed at the next arrival, like droidcheck's open model), records the acknowledgement latency
 * in an HDR histogram and remembers the requestId in a Map; a bare node:http server on --port
 * takes the webhook, checks the secret, parses the JSON, finds the requestId in the Map and
 * records the answer latency. No report, no contract check, no expectations.
 *
 *   node bench/generator-minimal.js --base-url URL --droid-id N --port P --rate R --seconds S [--wait S]
 *   (token and secret from DROID_API_TOKEN and DROID_WEBHOOK_SECRET; --wait: how long answers
 *   are waited for after the last send, 10 s by default)
 */
import { createServer } from 'node:http';
import { once } from 'node:events';
import * as hdr from 'hdr-histogram-js';
import { Pool } from 'undici';
import { arg, argString, ASYNC_BODY } from './lib.js';

const baseUrl = argString('base-url');
const droidId = argString('droid-id');
const port = arg('port', 0);
const rate = arg('rate', 800);
const seconds = arg('seconds', 6);
const waitS = arg('wait', 10);
const token = process.env.DROID_API_TOKEN ?? '';
const secret = process.env.DROID_WEBHOOK_SECRET ?? '';
const histogram = () =>
  hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 3_600_000_000, numberOfSignificantValueDigits: 3 });
const ack = histogram();
const answer = histogram();
const started = new Map(); // requestId -> start (ms)
const early = new Map(); // requestId -> arrival (ms): the webhook beat the acknowledgement
let answered = 0;
let failed = 0;

const server = createServer((req, res) => {
  let raw = '';
  req.setEncoding('utf8');
  req.on('data', (c) => (raw += c));
  req.on('end', () => {
    const now = performance.now();
    const ok = secret === '' || req.url.endsWith(`secret=${secret}`);
    let id;
    try {
      id = JSON.parse(raw).requestId;
    } catch {}
    if (ok && typeof id === 'string') {
      const t0 = started.get(id);
      if (t0 === undefined) early.set(id, now);
      else {
        started.delete(id);
        answer.recordValue(Math.max(1, Math.round((now - t0) * 1000)));
        answered++;
      }
    }
    res.writeHead(ok ? 200 : 401, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
});
server.listen(port, '127.0.0.1');
await once(server, 'listening');

const url = new URL(baseUrl);
const pool = new Pool(url.origin, { connections: null, keepAliveTimeout: 30_000 });
const path = `${url.pathname.replace(/\/+$/, '')}/api/droids/${droidId}/endpoint/get-droid-answer-async`;
const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };

async function submit(t0) {
  try {
    const res = await pool.request({ path, method: 'POST', headers, body: ASYNC_BODY });
    const text = await res.body.text();
    const now = performance.now();
    ack.recordValue(Math.max(1, Math.round((now - t0) * 1000)));
    const id = res.statusCode === 200 ? JSON.parse(text).requestId : undefined;
    if (typeof id !== 'string') return void failed++;
    const arrived = early.get(id);
    if (arrived === undefined) started.set(id, t0);
    else {
      early.delete(id);
      answer.recordValue(Math.max(1, Math.round((arrived - t0) * 1000)));
      answered++;
    }
  } catch {
    failed++;
  }
}

// Open model: arrival i is due at t0 + i / rate; a timer armed at the next arrival sends every due one.
const t0 = performance.now();
const total = Math.round(rate * seconds);
let sent = 0;
await new Promise((resolve) => {
  const tick = () => {
    const now = performance.now();
    while (sent < total && t0 + (sent * 1000) / rate <= now) void submit(t0 + (sent++ * 1000) / rate);
    if (sent >= total) return resolve();
    setTimeout(tick, Math.max(0, t0 + (sent * 1000) / rate - performance.now()));
  };
  tick();
});
const until = performance.now() + waitS * 1000;
while (answered + failed < total && performance.now() < until) await new Promise((r) => setTimeout(r, 20));
console.log(
  `minimal loop: sent ${sent}, answered ${answered}, failed ${failed}, ack p99 ${(ack.getValueAtPercentile(99) / 1000).toFixed(1)} ms, answer p99 ${(answer.getValueAtPercentile(99) / 1000).toFixed(1)} ms`,
);
await pool.close();
server.close();
process.exit(0);
