/**
 * How long a test waits before it calls something hung, ms: the one bound of every wait in the
 * tests that only exists so a hang ends (a CLI run to its exit, a child printing its URL, a poll
 * for a file or a count). It is a hang detector, never a speed assertion: the suite runs four test
 * files at a time on a 2-core machine that may be busy with other work, where starting the CLI
 * alone has taken 5-15 s and a test of several CLI runs over a minute, so a bound near the
 * unloaded time fails tests that are merely slow. What must be fast is asserted in a
 * `*.timing.test.ts` file (run alone, judged on the clock of the server that recorded it) or in
 * bench/, never through these bounds.
 *
 * A wait that is part of the behaviour under test (a deadline the product must keep, a window in
 * which nothing may arrive) is not a hang detector: it keeps its own value.
 */
export const HANG_MS = 120_000;

/**
 * vitest's testTimeout and hookTimeout (vitest.config.ts), ms: a test may wait for a few things
 * in a row, each bounded by HANG_MS, so the test as a whole gets three times as long.
 */
export const TEST_HANG_MS = 3 * HANG_MS;
