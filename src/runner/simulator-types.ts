/**
 * The simulated customer as the runner takes it (runner/simulate.ts runs `simulate:` scenarios
 * with it; jobs/pipeline/simulator.ts wraps src/llm's simulator into it). Types only.
 */

/** One customer line and the droid's answer, as the simulator reports them. */
interface CustomerTurn {
  customer: string;
  droid: string;
  latencyMs: number;
}

/** What a simulated conversation gives the runner (src/llm's Simulation, plus what `expect` reads). */
export interface CustomerSimulation {
  turns: readonly CustomerTurn[];
  end: 'stop' | 'max-turns' | 'empty' | 'token-limit' | 'budget-spent' | 'judge-error' | 'droid-error' | 'aborted';
  error?: { code: string; message: string } | undefined;
  transcript: string;
  lastPayload: unknown;
  /** The last answer payload's fields, `transcript` and `turns`: what the scenario's `expect` reads. */
  expectPayload: Record<string, unknown>;
  /** Chat calls made to the model (0: replayed from the cache). */
  calls: number;
  /** Customer lines replayed from the cache (no call). */
  cacheHits: number;
  /** Tokens of the model's calls, as its endpoint reported them. */
  promptTokens: number;
  completionTokens: number;
}

/** Sends one customer line (with the conversation so far) and resolves the answer payload; rejects when the droid did not answer. */
export type CustomerAsk = (
  turn: { chatHistory: { type: 'human' | 'ai'; content: string }[]; humanMessage: string },
  signal?: AbortSignal,
) => Promise<{ payload: unknown; latencyMs: number }>;

/** The injected simulated customer (jobs/ wraps src/llm's createSimulator). */
export interface CustomerSimulator {
  simulate(
    spec: { persona: string; goal: string; maxTurns: number; opening?: string | undefined },
    ask: CustomerAsk,
    signal?: AbortSignal,
    /** What its model calls are made for: the scenario and the conversation's trace (llm/budget.ts). */
    scope?: { scenario?: string | undefined; parent?: unknown },
  ): Promise<CustomerSimulation>;
}
