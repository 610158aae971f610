/**
 * The injected "ask the droid" functions the tests drive the simulator and the red team with:
 * one answer turn over real HTTP, sync (get-droid-answer) or async (get-droid-answer-async, then
 * the webhook through the real receiver). What the engine's wiring will do, minus the records.
 */
import type { DroidClient } from '../../src/client/index.js';
import type { ChatHistoryItem } from '../../src/contract/index.js';
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
