/**
 * Opens what a run talks to: the embedded emulator (default) or a real service, plus the
 * webhook receiver, all wired together (DESIGN.md: "With no target configured it runs
 * against an embedded emulator").
 */
import { Agent } from 'undici';
import { DroidClient } from './client/index.js';
import type { ResolvedRunConfig } from './config.js';
import { createEmulator, type Emulator } from './emulator/index.js';
import { createReceiver, type Receiver } from './receiver/index.js';

export interface Target {
  client: DroidClient;
  receiver: Receiver;
  /** The URL the service must POST answers to (without the secret). */
  webhookUrl: string;
  /** Base URL of the service (emulator or real). */
  baseUrl: string;
  emulator: Emulator | undefined;
  close(): Promise<void>;
}

/** Starts the receiver (and the emulator when no base URL is configured) on loopback by default. */
export async function openTarget(config: ResolvedRunConfig): Promise<Target> {
  const receiver = createReceiver({
    host: config.receiverHost,
    port: config.receiverPort,
    secret: config.webhookSecret,
  });
  const receiverUrl = await receiver.listen();
  const webhookUrl = config.publicUrl ?? receiverUrl;
  const dispatcher = new Agent({ keepAliveTimeout: 30_000, connections: null });
  let emulator: Emulator | undefined;
  let baseUrl: string;
  let droidId: string | number;
  let token: string;
  try {
    if (config.target.kind === 'emulator') {
      emulator = await createEmulator({ webhookUrl, webhookSecret: config.webhookSecret });
      baseUrl = await emulator.listen();
      droidId = emulator.droidId;
      token = emulator.token;
    } else {
      ({ baseUrl, droidId, token } = config.target);
    }
  } catch (err) {
    await receiver.close();
    await dispatcher.close();
    throw err;
  }
  const client = new DroidClient({ baseUrl, droidId, token, dispatcher });
  let closing: Promise<void> | undefined;
  return {
    client,
    receiver,
    webhookUrl,
    baseUrl,
    emulator,
    close() {
      // Emulator first (no more deliveries), then the receiver (parked deliveries become orphans).
      closing ??= (async () => {
        await Promise.allSettled([emulator?.close(), dispatcher.close()]);
        await receiver.close();
      })();
      return closing;
    },
  };
}
