/**
 * Emulator acknowledgement route (POST get-droid-answer-async) under a closed-loop generator
 * (undici, --connections, the same for every server), beside a bare
 * Fastify route returning the same JSON; then the same route with every answer delivered by
 * webhook, once with an empty delivery log and once with a full one (10,000 entries, the oldest
 * overwritten: a full log must cost no more than an empty one). Each server runs alone in a child
 * process (its own core), the webhook sink in another, the generator here; rounds rotate the order
 * (median and spread). Beside it, the delivery log's own cost per add() (empty vs full), timed in
 * this process. Targets: ack route >= 0.8x bare Fastify; full log >= 0.95x empty log.
 *
 *   npm run build && node bench/emulator-ack.js [--connections 64] [--requests 7000] [--rounds 3]
 *
 * Each run sends --requests after a 1,500-request warm-up. The two delivering emulators are kept
 * for the whole script and warmed alike; the empty one's log is swept before each of its runs, so
 * it stays short of its 10,000 entries. Bounded: two 11,000-request fills, then rounds x 4 runs.
 */
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import { ASYNC_BODY, arg, boxLoad, median, spread } from './lib.js';

const LOG_ENTRIES = 10_000;

if (process.argv[2] === 'sink') {
  const { default: Fastify } = await import('fastify');
  const sink = Fastify({ bodyLimit: 1 << 20 });
  sink.post('/webhook', async () => ({ ok: true }));
  await sink.listen({ host: '127.0.0.1', port: 0 });
  process.send({ url: `http://127.0.0.1:${sink.server.address().port}/webhook` });
  process.on('message', async () => {
    await sink.close();
    process.exit(0);
  });
} else if (process.argv[2] === 'server') {
  const { kind, webhookUrl } = JSON.parse(process.argv[3]);
  let close;
  let stats = () => ({});
  let sweep = () => 0;
  let url;
  if (kind === 'bare') {
    const { default: Fastify } = await import('fastify');
    const { ACK_MESSAGE } = await import('../dist/emulator/index.js');
    const bare = Fastify();
    let n = 0;
    bare.post('/api/droids/1/endpoint/get-droid-answer-async', async () => ({
      success: true,
      requestId: `tpa-bench${(n++).toString(36).padStart(20, '0')}`,
      message: ACK_MESSAGE,
    }));
    await bare.listen({ host: '127.0.0.1', port: 0 });
    url = `http://127.0.0.1:${bare.server.address().port}/api/droids/1/endpoint/get-droid-answer-async`;
    close = () => bare.close();
  } else {
    const { createEmulator } = await import('../dist/emulator/index.js');
    const faults = kind === 'ack-only' ? { webhooks: [{ action: 'drop', probability: 1 }] } : undefined;
    // 'sweepable': a log whose sweep empties it (retention 1 ms), for the empty-log runs.
    const emulator = await createEmulator({
      webhookUrl,
      webhookSecret: 's'.repeat(32),
      ...(faults && { faults }),
      ...(kind === 'sweepable' && { deliveryLogRetentionMs: 1 }),
    });
    sweep = () => emulator.sweepDeliveryLog();
    const base = await emulator.listen();
    url = `${base}/api/droids/${emulator.droidId}/endpoint/get-droid-answer-async`;
    close = () => emulator.close();
    stats = () => emulator.stats();
    process.send({ url, token: emulator.token });
  }
  if (kind === 'bare') process.send({ url, token: '' });
  process.on('message', async (m) => {
    if (m === 'stats') process.send(stats());
    if (m === 'sweep') process.send(sweep());
    if (m === 'close') {
      await close();
      process.exit(0);
    }
  });
} else {
  const connections = arg('connections', 64);
  const requests = arg('requests', 7_000);
  const WARM = 1_500;
  if (WARM + requests >= LOG_ENTRIES)
    throw new Error(`--requests must stay under ${LOG_ENTRIES - WARM} so the empty log stays short of full`);
  const rounds = arg('rounds', 3);
  const self = fileURLToPath(import.meta.url);
  const sink = fork(self, ['sink']);
  const [{ url: webhookUrl }] = await once(sink, 'message');

  const start = async (kind) => {
    const child = fork(self, ['server', JSON.stringify({ kind, webhookUrl })]);
    const [info] = await once(child, 'message');
    const ask = async (m) => {
      child.send(m);
      return (await once(child, 'message'))[0];
    };
    return { ...info, ask, close: async () => (child.send('close'), await once(child, 'exit')) };
  };
  /**
   * Closed loop of `connections` undici connections sending `amount` requests; resolves the
   * achieved rate (req/s, timed here; autocannon's `amount` ends on its 1 s tick) and the p99.
   */
  const fire = async (s, { amount }) => {
    const u = new URL(s.url);
    const pool = new Pool(u.origin, { connections, pipelining: 1 });
    const headers = { 'content-type': 'application/json', authorization: `Bearer ${s.token}` };
    const latencies = [];
    let next = 0;
    let non2xx = 0;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: connections }, async () => {
        while (next++ < amount) {
          const t = performance.now();
          const res = await pool.request({ path: u.pathname, method: 'POST', headers, body: ASYNC_BODY });
          await res.body.dump();
          if (res.statusCode !== 200) non2xx++;
          latencies.push(performance.now() - t);
        }
      }),
    );
    const elapsedS = (performance.now() - t0) / 1000;
    await pool.close();
    latencies.sort((a, b) => a - b);
    return { rate: amount / elapsedS, non2xx, p99: latencies[Math.floor(latencies.length * 0.99)] ?? 0 };
  };
  /** Waits until the emulator has delivered (or dropped) every accepted answer. */
  const settle = async (s) => {
    const until = Date.now() + 30_000;
    for (;;) {
      const st = await s.ask('stats');
      if (
        st.accepted === undefined ||
        st.delivered + st.deliveryFailures + st.dropped >= st.accepted ||
        Date.now() > until
      )
        return st;
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  console.log(
    `emulator ack route, ${connections} connections, ${rounds} rounds of ${requests} requests per server (each in a child process, webhook sink in another); ${boxLoad()}`,
  );
  // Two long-lived emulators that deliver every answer, warmed alike (more than LOG_ENTRIES
  // deliveries each): the full one keeps its log; the empty one's log is swept before each run
  // (retention 1 ms), so it holds fewer than LOG_ENTRIES entries while measured.
  const full = await start('delivery');
  const empty = await start('sweepable');
  for (const s of [full, empty]) {
    await fire(s, { amount: LOG_ENTRIES + 1_000 });
    await settle(s);
  }
  console.log(
    `  both logs filled with ${LOG_ENTRIES + 1_000} deliveries; the empty one is swept before each of its runs`,
  );

  const VARIANTS = ['bare', 'ack-only', 'empty log', 'full log'];
  const rates = Object.fromEntries(VARIANTS.map((v) => [v, []]));
  for (let r = 0; r < rounds; r++) {
    const line = [];
    for (let i = 0; i < VARIANTS.length; i++) {
      const v = VARIANTS[(i + r) % VARIANTS.length];
      // A fresh server per run for bare and ack-only (warmed with WARM requests); the two delivering emulators are kept.
      const s = v === 'full log' ? full : v === 'empty log' ? empty : await start(v);
      await fire(s, { amount: WARM });
      await settle(s);
      if (s === empty) await s.ask('sweep');
      const res = await fire(s, { amount: requests });
      const rate = res.rate;
      const st = await settle(s);
      if (s !== full && s !== empty) await s.close();
      rates[v].push(rate);
      line.push(
        `${v} ${rate.toFixed(0)} req/s (non-2xx ${res.non2xx}, p99 ${res.p99.toFixed(1)} ms${st.delivered !== undefined ? `, delivered ${st.delivered}` : ''})`,
      );
    }
    console.log(`  round ${r + 1}: ${line.join(' | ')}`);
  }
  await full.close();
  await empty.close();
  sink.send('close');

  const ratioOf = (a, b) => rates[a].map((x, i) => x / rates[b][i]);
  const verdict = (label, ratios, target) => {
    const m = median(ratios);
    console.log(
      `${label}: ratio ${spread(ratios)} | target >= ${target.toFixed(2)}${m < target ? `  MISSED by ${((1 - m / target) * 100).toFixed(1)}%` : '  OK'}`,
    );
  };
  console.log(
    `acknowledgements per second, median (min-max): ${VARIANTS.map((v) => `${v} ${spread(rates[v], 0)}`).join(' | ')}`,
  );
  verdict('emulator ack route (answers dropped) / bare Fastify', ratioOf('ack-only', 'bare'), 0.8);
  verdict('ack route with delivery, full log / empty log', ratioOf('full log', 'empty log'), 0.95);
  console.log(
    `(ack route with every answer delivered, empty log / bare Fastify: ${spread(ratioOf('empty log', 'bare'))}; the emulator's process also sends each webhook)`,
  );

  // The log's own cost per delivery, empty vs full (was ~59 us with a full 10,000-entry array).
  const { DeliveryLog } = await import('../dist/emulator/delivery-log.js');
  const entry = (i) => ({
    kind: 'answer',
    requestId: `tpa-${i}`,
    attempt: 1,
    targetUrl: webhookUrl,
    status: 200,
    ok: true,
    durationMs: 1,
    error: '',
    startedAtMs: Date.now(),
    requestBody: '{}',
    responseBody: '',
  });
  const entries = Array.from({ length: 5_000 }, (_, i) => entry(i));
  const fullLog = new DeliveryLog(7 * 86_400_000, () => new Date());
  for (let i = 0; i < LOG_ENTRIES; i++) fullLog.add(entry(i));
  /** CPU per add() of 5,000 entries, 40 times: into a fresh log each time (stays short of full), or into the full one. */
  const perAdd = (full) => {
    let us = 0;
    for (let k = 0; k < 40; k++) {
      const log = full ? fullLog : new DeliveryLog(7 * 86_400_000, () => new Date());
      const c0 = process.cpuUsage();
      for (const e of entries) log.add(e);
      const c = process.cpuUsage(c0);
      us += c.user + c.system;
    }
    return us / (40 * entries.length);
  };
  perAdd(false);
  perAdd(true); // JIT warm-up
  const emptyAdd = perAdd(false);
  const fullAdd = perAdd(true);
  console.log(
    `delivery log add(): ${emptyAdd.toFixed(3)} us into an empty log, ${fullAdd.toFixed(3)} us into a full one (ring buffer; overwrites the oldest)`,
  );
}
