/**
 * The test rig every end-to-end test shares: a real emulator and a real receiver on 127.0.0.1
 * port 0, wired by webhook URL and secret, and a DroidClient over its own undici Agent.
 * `close()` stops the emulator first (no more deliveries), then the client and the receiver.
 */
import { Agent } from 'undici';
import { DroidClient, type DroidClientOptions } from '../../src/client/index.js';
import { createEmulator, type Emulator, type EmulatorOptions } from '../../src/emulator/index.js';
import { createReceiver, type Receiver, type ReceiverOptions } from '../../src/receiver/index.js';

const LOOPBACK_SECRET = 'loopback-secret-0123456789abcdefghijklmn';

export interface Loopback {
  emulator: Emulator;
  receiver: Receiver;
  client: DroidClient;
  webhookUrl: string;
  close(): Promise<void>;
}

export interface LoopbackOptions {
  secret?: string;
  emulator?: Omit<EmulatorOptions, 'webhookUrl' | 'webhookSecret'>;
  receiver?: Omit<ReceiverOptions, 'secret'>;
  client?: Partial<Pick<DroidClientOptions, 'requestTimeoutMs' | 'syncTimeoutMs'>>;
  agent?: ConstructorParameters<typeof Agent>[0];
}

export async function startLoopback(options: LoopbackOptions = {}): Promise<Loopback> {
  const secret = options.secret ?? LOOPBACK_SECRET;
  const receiver = createReceiver({ ...options.receiver, secret });
  const webhookUrl = await receiver.listen();
  const emulator = await createEmulator({ ...options.emulator, webhookUrl, webhookSecret: secret });
  const baseUrl = await emulator.listen();
  const dispatcher = new Agent(options.agent);
  const client = new DroidClient({
    baseUrl,
    droidId: emulator.droidId,
    token: emulator.token,
    dispatcher,
    ...options.client,
  });
  return {
    emulator,
    receiver,
    client,
    webhookUrl,
    async close() {
      await emulator.close();
      await dispatcher.close();
      await receiver.close();
    },
  };
}
