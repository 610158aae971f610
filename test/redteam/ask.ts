/**
 * The injected "ask the droid" functions the tests drive the simulator and the red team with:
 * one answer turn over real HTTP, sync (get-droid-answer) or async (get-droid-answer-async, then
 * the webhook through the real receiver). What the engine's wiring will do, minus the records.
 */
import { Agent } from 'undici';
import { DroidClient } from '../../src/client/index.js';
import type { ChatHistoryItem } from '../../src/contract/index.js';
import { createEmulator, type Emulator, type Weakness } from '../../src/emulator/index.js';
import { ApiError, TimeoutError } from '../../src/errors.js';
import type { Receiver } from '../../src/receiver/index.js';

interface AskTurn {
  chatHistory: ChatHistoryItem[];
  humanMessage: string;
}
export type Ask = (turn: AskTurn, signal?: AbortSignal) => Promise<{ payload: unknown; latencyMs: number }>;

/** One sync answer turn; the latency is the whole request, ms. */
export function syncAsk(client: DroidClient): Ask {
  return async (turn, signal) => {
    const t0 = performance.now();
    const res = await client.getDroidAnswer(
      { humanMessage: turn.humanMessage, chatHistory: turn.chatHistory },
      signal ? { signal } : {},
    );
    return { payload: res.body, latencyMs: performance.now() - t0 };
  };
}

/** One async answer turn: the acknowledgement, then the webhook (within `timeoutMs`); latency: submit to webhook, ms. */
export function asyncAsk(client: DroidClient, receiver: Receiver, timeoutMs = 10_000): Ask {
  return async (turn, signal) => {
    const t0 = performance.now();
    const ack = await client.getDroidAnswerAsync(
      { humanMessage: { content: turn.humanMessage, type: 'human' }, chatHistory: turn.chatHistory },
      signal ? { signal } : {},
    );
    const match = await receiver.waitFor(ack.body.requestId, t0 + timeoutMs, signal);
    if (match.kind === 'timeout') throw new TimeoutError(`no webhook for ${ack.body.requestId} within ${timeoutMs} ms`);
    if (match.kind === 'failed')
      throw new ApiError({
        status: 200,
        error: String(match.payload.error),
        message: 'error payload',
        endpoint: 'webhook',
      });
    return { payload: match.payload, latencyMs: match.receivedAt - t0 };
  };
}

/** An embedded emulator on loopback (with `weaknesses` planted) and a client of its own. */
export interface EmulatorTarget {
  emulator: Emulator;
  client: DroidClient;
  agent: Agent;
  close(): Promise<void>;
}

export async function emulatorTarget(weaknesses: Weakness[] = []): Promise<EmulatorTarget> {
  const emulator = await createEmulator(weaknesses.length > 0 ? { weaknesses } : {});
  const agent = new Agent();
  const client = new DroidClient({
    baseUrl: await emulator.listen(),
    droidId: emulator.droidId,
    token: emulator.token,
    dispatcher: agent,
  });
  return {
    emulator,
    client,
    agent,
    close: async () => {
      await emulator.close();
      await agent.close();
    },
  };
}
