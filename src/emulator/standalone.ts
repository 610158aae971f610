/**
 * `startEmulatorStandalone(options)`: creates and starts an emulator for `droidcheck emulate`
 * (the CLI wraps it; this function never exits the process). Defaults to the echo receiver
 * as the webhook when none is given, so the async endpoint works out of the box.
 */
import { createEmulator, type Emulator } from './create-emulator.js';
import type { EmulatorOptions } from './options.js';

export interface StandaloneOptions extends EmulatorOptions {
  /** When no webhookUrl is given, use the emulator's own echo receiver. Default true. */
  echoWebhook?: boolean;
}

export interface StandaloneEmulator {
  /** Base URL, e.g. http://127.0.0.1:8787 */
  url: string;
  emulator: Emulator;
  close(): Promise<void>;
}

export async function startEmulatorStandalone(options: StandaloneOptions = {}): Promise<StandaloneEmulator> {
  const { echoWebhook = true, ...rest } = options;
  const emulator = await createEmulator(rest);
  let url: string;
  try {
    url = await emulator.listen();
  } catch (err) {
    await emulator.close();
    throw err;
  }
  if (!rest.webhookUrl && echoWebhook) {
    emulator.setWebhook(`${url}/api/droids/${emulator.droidId}/test-async-answer-webhook`);
  }
  return { url, emulator, close: () => emulator.close() };
}
