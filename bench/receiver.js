/**
 * Receiver alone: autocannon POSTs answer webhooks (unique requestIds) at droidcheck's
 * receiver, which runs in this process on one core. Target: >= 30,000 webhooks/s.
 * Usage: node bench/receiver.js [--connections 64] [--seconds 10]
 */
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { arg, verdict } from './lib.js';

if (process.argv[2] === 'child') {
  const { createReceiver } = await import('../dist/receiver/index.js');
  const receiver = createReceiver({ secret: 's'.repeat(32), orphanGraceMs: 1000, maxParked: 10_000 });
  const url = await receiver.listen();
  const cpu0 = process.cpuUsage();
  process.send({ url });
  process.on('message', async () => {
    const cpu = process.cpuUsage(cpu0);
    process.send({ ...receiver.stats(), cpuMs: (cpu.user + cpu.system) / 1000 });
    await receiver.close();
    process.exit(0);
  });
} else {
  const autocannon = (await import('autocannon')).default;
  const connections = arg('connections', 64);
  const seconds = arg('seconds', 10);
  const child = fork(fileURLToPath(import.meta.url), ['child']);
  const [{ url }] = await once(child, 'message');
  let n = 0;
  const payload = (id) => JSON.stringify({
    requestId: `tpa-${id}`, droidId: 1, customerId: 1001, responses: [], answer: 'Hello! How can I help?', intents: ['greeting'],
    addressParsing: { street_address: '', subdistrict: '', district: '', city: '', postal_code: '', country: '' },
    customerInsight: { forbidden_topics: 'no', user_intent: 'greeting', intents: ['greeting'], product_keyword: [], user_language: 'en', contact_info: { name: '', phone: '', email: '' }, has_extractable_info: false },
    shoppingCart: { products: [], shippingFee: '0', grandTotal: '0 THB' }, customExtractedInfo: {}, executionTime: 1, timestamp: new Date().toISOString(),
  });
  const result = await autocannon({
    url: `${url}?secret=${'s'.repeat(32)}`, connections, duration: seconds,
    requests: [{ method: 'POST', headers: { 'content-type': 'application/json' }, setupRequest: (req) => ({ ...req, body: payload(n++) }) }],
  });
  child.send('stats');
  const [stats] = await once(child, 'message');
  console.log(`receiver alone (one process/core), ${connections} connections, ${seconds} s: ${result.requests.total} webhooks, non-2xx ${result.non2xx}, stats ${JSON.stringify(stats)}`);
  verdict('receiver (offered by autocannon)', result.requests.total / seconds, 30_000, 'target', 'webhooks/s', 1);
  // The generator shares the 2 cores and may not saturate the receiver: its capacity on one core
  // is what it received divided by the CPU time it spent (webhooks per CPU-second).
  const perCore = stats.received / (stats.cpuMs / 1000);
  console.log(`receiver CPU: ${stats.cpuMs.toFixed(0)} ms for ${stats.received} webhooks = ${(stats.cpuMs * 1000 / stats.received).toFixed(1)} us each`);
  verdict('receiver capacity on one core', perCore, 30_000, 'target', 'webhooks/s', 1);
}
