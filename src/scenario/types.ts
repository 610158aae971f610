/**
 * The resolved scenario model the runner consumes (docs/interfaces.md, "scenario/").
 * What the user wrote (`UserSuite`, inferred from the zod schema in `schema.ts`) is kept apart
 * from these resolved shapes: `normalise.ts` turns the one into the other.
 */
import type { ChatHistoryItem } from '../contract/index.js';
import type { SourceLocation } from '../errors.js';

export type { SourceLocation };

/** Which answer endpoint a scenario runs against: `get-droid-answer` (sync) or `-async` (spec 8, 9). */
export type AnswerMode = 'sync' | 'async';

/**
 * One matcher applied to one dotted path of the answer payload.
 * - `path`: dotted, numeric segments index arrays (`responses.0.kwargs.content`).
 * - `matcher`: a name from `MATCHER_NAMES` (`equals`, `contains`, ...).
 * - `expected`: the normalised expected value (plain data; for `json`, an `Expectation[]`).
 * - `location`: file:line:col of the matcher key (or of the path key for the scalar shorthand).
 * - `options`: matcher options, e.g. `{ ignoreCase: true }`, `{ flags: 'i' }`.
 */
export interface Expectation {
  path: string;
  matcher: string;
  expected: unknown;
  location: SourceLocation;
  options?: Record<string, unknown>;
}

export interface Scenario {
  suite: string;
  name: string;
  file: string;
  /** Where the scenario's map starts (its first key). */
  location: SourceLocation;
  tags: string[];
  /** `undefined` => the runner runs both modes. */
  modes: AnswerMode[] | undefined;
  chatHistory: ChatHistoryItem[];
  humanMessage: string;
  expect: Expectation[];
  /** From `latency: "< 180s"`: the limit in ms and where it was written. */
  latencyMs?: { max: number; location: SourceLocation };
}

export interface Suite {
  name: string;
  file: string;
  scenarios: Scenario[];
}

/**
 * A failed expectation. `actual` is the value found at `path` (`undefined` when missing);
 * `message` is one line, e.g. `intents: expected to include "refund", got ["greeting"]`.
 */
export interface ExpectationFailure {
  path: string;
  matcher: string;
  expected: unknown;
  actual: unknown;
  message: string;
  location: SourceLocation;
}
