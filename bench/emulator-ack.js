/**
 * Emulator acknowledgement route vs a bare Fastify route returning the same JSON, side by side
 * in one run with autocannon (issue 3, Speed: the emulator's ack must sustain >= 0.8x).
 * Both servers run in this child-free process one after the other, each alone on 127.0.0.1;
 * the emulator delivers its webhooks to a sink in a second process, as in a real run.
 * Usage: node bench/emulator-ack.js [--connections 64] [--seconds 10]
 */
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { ASYNC_BODY, arg, verdict } from './lib.js';

if (process.argv[2] === 'sink') {
  const { default: Fastify } = await import('fastify');
  const sink = Fastify();
  sink.post('/webhook', async () => ({ ok: true }));
  await sink.listen({ host: '127.0.0.1', port: 0 });
  process.send({ url: `http://127.0.0.1:${sink.server.address().port}/webhook` });
  process.on('message', async () => {
    await sink.close();
    process.exit(0);
  });
} else {
  const autocannon = (await import('autocannon')).default;
  const { default: Fastify } = await import('fastify');
  const { createEmulator, ACK_MESSAGE } = await import('../dist/emulator/index.js');
  const connections = arg('connections', 64);
  const seconds = arg('seconds', 10);
  const sink = fork(fileURLToPath(import.meta.url), ['sink']);
  const [{ url: webhookUrl }] = await once(sink, 'message');

  const fire = (url, headers) =>
    autocannon({ url, connections, duration: seconds, method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: ASYNC_BODY });

  // The bare route: same path shape, same JSON, nothing else.
  const bare = Fastify();
  let n = 0;
  bare.post('/api/droids/1/endpoint/get-droid-answer-async', async () => ({ success: true, requestId: `tpa-bench-${(n++).toString(36)}`, message: ACK_MESSAGE }));
  await bare.listen({ host: '127.0.0.1', port: 0 });
  const bareRes = await fire(`http://127.0.0.1:${bare.server.address().port}/api/droids/1/endpoint/get-droid-answer-async`, {});
  await bare.close();

  // 1. The acknowledgement route alone: every answer is accepted, then dropped by a webhook fault.
  // 2. The same with every answer delivered to the sink (the emulator's process does both).
  const runEmulator = async (faults) => {
    const emulator = await createEmulator({ webhookUrl, webhookSecret: 's'.repeat(32), ...(faults && { faults }) });
    const base = await emulator.listen();
    const res = await fire(`${base}/api/droids/${emulator.droidId}/endpoint/get-droid-answer-async`, { authorization: `Bearer ${emulator.token}` });
    const stats = emulator.stats();
    await emulator.close();
    return { res, stats };
  };
  const ackOnly = await runEmulator({ webhooks: [{ action: 'drop', probability: 1 }] });
  const withDelivery = await runEmulator(undefined);
  sink.send('close');

  console.log(`ack route, ${connections} connections, ${seconds} s each, autocannon raw req/s:`);
  console.log(`  bare Fastify:            ${bareRes.requests.total} requests, non-2xx ${bareRes.non2xx}, p99 ${bareRes.latency.p99} ms`);
  console.log(`  emulator, ack route:     ${ackOnly.res.requests.total} requests, non-2xx ${ackOnly.res.non2xx}, p99 ${ackOnly.res.latency.p99} ms (answers dropped)`);
  console.log(`  emulator, with delivery: ${withDelivery.res.requests.total} requests, non-2xx ${withDelivery.res.non2xx}, p99 ${withDelivery.res.latency.p99} ms, delivered ${withDelivery.stats.delivered} of ${withDelivery.stats.accepted}`);
  verdict('emulator ack route', ackOnly.res.requests.total / seconds, bareRes.requests.total / seconds, 'bare Fastify', 'req/s', 0.8);
  verdict('emulator ack + webhook delivery', withDelivery.res.requests.total / seconds, bareRes.requests.total / seconds, 'bare Fastify', 'req/s', 0.8);
}
