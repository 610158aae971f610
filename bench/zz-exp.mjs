import Fastify from 'fastify';
import { Agent } from 'undici';
import { DroidClient } from '../dist/client/index.js';
import { runLoadEngine, createMix } from '../dist/load/index.js';
const app = Fastify();
const truth = [];
app.addHook('onRequest', async (r) => { r.t0 = performance.now(); });
app.post('/api/droids/1/endpoint/get-droid-answer', async (r) => { await new Promise((res) => setTimeout(res, 50)); truth.push(performance.now() - r.t0); return { answer: 'ok' }; });
await app.listen({ host: '127.0.0.1', port: 0 });
const client = new DroidClient({ baseUrl: `http://127.0.0.1:${app.server.address().port}`, droidId: 1, token: 't', dispatcher: new Agent({ connections: null }) });
const sc = { suite: 's', name: 'n', file: 'f', location: { file: 'f', line: 1, col: 1 }, tags: [], modes: ['sync'], chatHistory: [], humanMessage: 'hi', expect: [] };
const q = (a, p) => [...a].sort((x, y) => x - y)[Math.ceil(a.length * p) - 1];
for (let i = 0; i < 3; i++) {
  truth.length = 0;
  const { session } = await runLoadEngine({ client, mix: createMix([{ name: 's', file: 'f', scenarios: [sc] }]), model: { kind: 'open', startRate: 200, stages: [{ durationMs: 1500, target: 200 }] }, timeoutMs: 5000, warmupMs: 250 });
  const s = session.ctx.latency.summary('sync');
  const t = truth.slice(-s.count);
  console.log(s.p50, q(t, 0.5), s.p99, q(t, 0.99), session.sendDelay.summary().p50, session.sendDelay.summary().p99);
}
process.exit(0);
