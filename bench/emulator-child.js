/** Child process: the emulator (and, unless a webhook URL is given, a 200-sink for its webhooks). */
import Fastify from 'fastify';
import { createEmulator } from '../dist/emulator/index.js';

const options = JSON.parse(process.argv[2] ?? '{}');
let sink;
let webhookUrl = options.webhookUrl;
if (!webhookUrl) {
  sink = Fastify({ logger: false, bodyLimit: 1 << 20 });
  sink.post('/webhook', async () => ({ ok: true }));
  await sink.listen({ host: '127.0.0.1', port: 0 });
  webhookUrl = `http://127.0.0.1:${sink.server.address().port}/webhook`;
}
const emulator = await createEmulator({ ...options, webhookUrl, webhookSecret: options.webhookSecret ?? null });
const baseUrl = await emulator.listen();
process.send({ baseUrl, token: emulator.token, droidId: emulator.droidId });
process.on('message', async (m) => {
  if (m === 'stats') process.send(emulator.stats());
  if (m === 'close') {
    await emulator.close();
    await sink?.close();
    process.exit(0);
  }
});
