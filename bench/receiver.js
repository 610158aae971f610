/**
 * Receiver: CPU per answer webhook of droidcheck's receiver (secret on, every delivery matched by
 * a waiter, as in a run) beside a bare Fastify route that parses the same JSON body and answers
 * 200 (the anchor), and a bare node:http server doing the same (the floor). Same generator
 * (autocannon, --connections, unique requestIds), same ~1.7 KB payloads, one run: each server
 * in its own child process, measured with process.cpuUsage over the same number of webhooks,
 * in rounds that alternate the three (the median and the spread are printed).
 * Target: droidcheck <= 1.2x bare Fastify.
 *
 *   npm run build && node bench/receiver.js [--rate 3000] [--connections 64] [--amount 4000] [--rounds 15] [--baseline DIR] [--profile DIR]
 *
 * `--baseline DIR` adds the receiver of another build (e.g. a copy of dist/ before a change) to
 * every round, for a paired before/after. `--profile DIR` writes a V8 CPU profile of each server (node --cpu-prof) to DIR.
 * Bounded: rounds x 3 batches of --amount webhooks, each batch cut at 30 s.
 */
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { arg, argString, boxLoad, BENCH_MESSAGE, median, SECRET, spread } from './lib.js';

const KINDS = ['droidcheck', 'fastify', 'node:http', ...(argString('baseline') ? ['baseline'] : [])];
const BATCH_CAP_S = 30;

/** A child: one server; 'begin' starts the CPU count, 'end' reports it; 'close' exits. */
async function child(kind, total, window) {
  let handled = 0;
  let server;
  let url;
  if (kind === 'droidcheck' || kind === 'baseline') {
    const dist =
      kind === 'baseline'
        ? pathToFileURL(`${resolve(argString('baseline'))}/`).href
        : new URL('../dist/', import.meta.url).href;
    // As the CLI runs it (cli/main.ts): the tick object kept alive first (a build before it had none).
    await import(`${dist}tick-shape.js`).catch(() => undefined);
    const { createReceiver } = await import(`${dist}receiver/index.js`);
    const receiver = createReceiver({ secret: SECRET });
    url = await receiver.listen();
    // Every delivery has a waiter, registered shortly before it (`window` requestIds ahead), and
    // awaited the way the runner awaits it: one async function per request (answer-turn.ts) that
    // reads the match's contract check (violations) and ends; the next request's waiter starts
    // when one ends.
    const deadline = performance.now() + 3_600_000;
    let next = 0;
    const request = async (id) => {
      const m = await receiver.waitFor(id, deadline);
      if (m.kind === 'answered' && m.contract.violations.length === 0) handled++;
      if (next < total) void request(`tpa-${next++}`);
    };
    for (let i = 0; i < window; i++) void request(`tpa-${next++}`);
    server = {
      close: () => receiver.close(),
      stats: () => ({ ...receiver.stats(), parkedNow: receiver.parkedCount(), pending: receiver.pendingCount() }),
    };
  } else if (kind === 'fastify') {
    const { default: Fastify } = await import('fastify');
    const app = Fastify({ bodyLimit: 1 << 20 });
    app.post('/webhook', (_req, reply) => {
      handled++;
      reply.code(200).send('{"ok":true}');
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    url = `http://127.0.0.1:${app.server.address().port}/webhook`;
    server = app;
  } else {
    const { createServer } = await import('node:http');
    const srv = createServer((req, res) => {
      let raw = '';
      req.setEncoding('utf8');
      req.on('data', (c) => (raw += c));
      req.on('end', () => {
        let ok = false;
        try {
          ok = typeof JSON.parse(raw).requestId === 'string';
        } catch {}
        if (ok) handled++;
        res.writeHead(ok ? 200 : 400, { 'content-type': 'application/json; charset=utf-8' }).end('{"ok":true}');
      });
    });
    srv.listen(0, '127.0.0.1');
    await once(srv, 'listening');
    url = `http://127.0.0.1:${srv.address().port}/webhook`;
    server = { close: () => new Promise((r) => srv.close(r)) };
  }
  let cpu0;
  let n0 = 0;
  process.on('message', async (m) => {
    if (m === 'begin') {
      n0 = handled;
      cpu0 = process.cpuUsage();
      process.send('ok');
    } else if (m === 'end') {
      const cpu = process.cpuUsage(cpu0);
      process.send({ cpuUs: cpu.user + cpu.system, handled: handled - n0, stats: server.stats?.() });
    } else if (m === 'close') {
      await server.close();
      process.exit(0);
    }
  });
  process.send({ url });
}

if (process.argv[2] === 'child') {
  await child(process.argv[3], Number(process.argv[4]), Number(process.argv[5]));
} else {
  const autocannon = (await import('autocannon')).default;
  const { generateAnswer } = await import('../dist/emulator/index.js');
  const connections = arg('connections', 32);
  const rate = arg('rate', 1500);
  const amount = arg('amount', 4000);
  // The per-round ratio moves by ~10% on a shared 2-core box; the median of 15 rounds moves by
  // ~2% from run to run (7 rounds: ~5%, enough to flip a verdict near the target).
  const rounds = arg('rounds', 15);
  const warmup = arg('warmup', 3000);
  const profile = argString('profile', undefined);
  const alternate = process.argv.includes('--alternate');
  const total = warmup + rounds * amount + connections;

  // The payload the emulator sends for the bench message (~1.7 KB), with a unique requestId each.
  const answer = generateAnswer({ humanMessage: BENCH_MESSAGE, chatHistory: [] });
  const template = JSON.stringify({
    requestId: 'tpa-@ID@',
    droidId: 1,
    customerId: 1001,
    ...answer,
    executionTime: 3,
    timestamp: new Date().toISOString(),
  });
  const [head, tail] = template.split('@ID@');

  const self = fileURLToPath(import.meta.url);
  const servers = {};
  for (const kind of KINDS) {
    const execArgv = profile
      ? ['--cpu-prof', `--cpu-prof-dir=${profile}`, `--cpu-prof-name=receiver-${kind.replace(':', '-')}.cpuprofile`]
      : [];
    const c = fork(self, ['child', kind, String(total), String(2 * connections), ...process.argv.slice(2)], {
      execArgv,
    });
    const [{ url }] = await once(c, 'message');
    servers[kind] = { child: c, url: `${url}?secret=${SECRET}`, next: 0, results: [] };
  }
  const fire = (s, n) => {
    const run = autocannon({
      url: s.url,
      connections,
      amount: n,
      timeout: 10,
      ...(rate > 0 && { overallRate: rate }),
      requests: [
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          setupRequest: (req) => ({ ...req, body: head + s.next++ + tail }),
        },
      ],
    });
    const cap = setTimeout(() => run.stop(), BATCH_CAP_S * 1000);
    return run.then((r) => (clearTimeout(cap), r));
  };
  const ask = async (s, m) => {
    s.child.send(m);
    return (await once(s.child, 'message'))[0];
  };

  console.log(
    `receiver: CPU per answer webhook (${head.length + tail.length + 4} B payload, secret on), ${rate > 0 ? `${rate} webhooks/s` : 'as fast as autocannon goes'}, ${connections} connections, ${rounds} rounds of ${amount} per server, ${alternate ? 'one server after the other' : 'all servers side by side'}; ${boxLoad()}`,
  );
  await Promise.all(KINDS.map((k) => fire(servers[k], warmup))); // JIT warm-up, unmeasured
  for (let r = 0; r < rounds; r++) {
    const line = [];
    const measure = async (s) => {
      await ask(s, 'begin');
      const t0 = performance.now();
      const res = await fire(s, amount);
      const wallS = (performance.now() - t0) / 1000;
      const { cpuUs, handled, stats } = await ask(s, 'end');
      if (stats && process.env.BENCH_DEBUG) console.log(JSON.stringify(stats));
      return { us: cpuUs / Math.max(1, handled), handled, res, wallS };
    };
    // Side by side (default): every server under its own generator at the same time, so each
    // round's figures share the box's conditions; --alternate: one server after the other.
    const results = alternate ? [] : await Promise.all(KINDS.map((k) => measure(servers[k])));
    if (alternate) for (const k of KINDS) results.push(await measure(servers[k]));
    KINDS.forEach((kind, i) => {
      const { us, handled, res, wallS } = results[i];
      servers[kind].results.push(us);
      line.push(
        `${kind} ${us.toFixed(1)} us (${handled} webhooks, ${res.non2xx} non-2xx, ${(res.requests.total / wallS).toFixed(0)}/s)`,
      );
    });
    console.log(`  round ${r + 1}: ${line.join(' | ')}`);
  }
  for (const kind of KINDS) {
    servers[kind].child.send('close');
    await once(servers[kind].child, 'exit');
  }

  const dc = servers.droidcheck.results;
  const fy = servers.fastify.results;
  const nh = servers['node:http'].results;
  const ratios = dc.map((v, i) => v / fy[i]);
  console.log(
    `CPU per webhook, median (min-max): droidcheck ${spread(dc, 1)} us | bare Fastify ${spread(fy, 1)} us | bare node:http (floor) ${spread(nh, 1)} us`,
  );
  const ratio = median(ratios);
  console.log(
    `droidcheck receiver / bare Fastify: ratio ${spread(ratios)} | target <= 1.20${ratio > 1.2 ? `  MISSED by ${((ratio / 1.2 - 1) * 100).toFixed(1)}%` : '  OK'}; bare Fastify / node:http ${median(fy.map((v, i) => v / nh[i])).toFixed(2)}`,
  );
  if (servers.baseline) {
    const base = servers.baseline.results;
    console.log(
      `baseline build (${argString('baseline')}): ${spread(base, 1)} us; droidcheck / baseline ${spread(dc.map((v, i) => v / base[i]))}`,
    );
  }
  process.exit(0);
}
