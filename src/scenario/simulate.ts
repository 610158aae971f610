/**
 * `simulate:` scenarios: a language model plays the customer (persona and goal) against the
 * droid for up to `maxTurns` lines (src/llm/simulator.ts runs it). What `expect` reads: the last
 * answer payload's fields, plus `transcript` (the conversation as `customer:`/`droid:` lines,
 * usually judged) and `turns` (customer lines sent, e.g. `{ lte: 4 }`).
 */
import { payloadPathProblem } from './payload-paths.js';
import type { SourceLocation, Suite } from './types.js';

/** Customer lines when `simulate.maxTurns` is left out. */
export const DEFAULT_SIMULATE_MAX_TURNS = 8;
/** The upper bound of `maxTurns`: every simulated conversation ends. */
export const MAX_SIMULATE_TURNS = 50;

/** Fields a simulated scenario's `expect` may read besides the answer payload's. */
const SIMULATION_FIELDS = ['transcript', 'turns'] as const;

/** `payloadPathProblem`, with `transcript` and `turns` allowed (a simulated scenario's expect). */
export function simulatedPathProblem(path: string): string | undefined {
  const first = path.split('.')[0] ?? '';
  if ((SIMULATION_FIELDS as readonly string[]).includes(first))
    return path === first
      ? undefined
      : `"${first}" is a ${first === 'turns' ? 'number' : 'text'}: it has no field "${path.slice(first.length + 1)}"`;
  return payloadPathProblem(path);
}

/** Where a suite simulates a customer (each needs a model: `--simulator-model`, default the judge model). */
export function needsSimulator(suites: readonly Suite[]): { location: SourceLocation }[] {
  return suites.flatMap((s) =>
    s.scenarios.filter((sc) => sc.simulate !== undefined).map((sc) => ({ location: sc.simulate!.location })),
  );
}
