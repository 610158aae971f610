import { defineConfig } from 'vitest/config';
import { HANG_MS, TEST_HANG_MS } from './test/helpers/hang.js';

/**
 * Three projects: `unit` (every test, files in parallel), `timing` (tests that assert measured
 * time, latencies or growth, and tests that need a core to themselves for seconds, named
 * `*.timing.test.ts` whatever their folder: they run alone, one file at a time, so a parallel
 * test on the other core does not distort what they measure nor they slow it), and `readback`
 * (tests over every report.json the other projects' CLI runs wrote). `npm test` runs them one
 * after the other.
 *
 * Timeouts are hang detectors, not speed assertions (test/helpers/hang.ts): a test or a hook
 * gets TEST_HANG_MS, each wait inside it HANG_MS, so a busy machine makes the suite slower but
 * never red. A test that must be fast says so in a timing test, on a clock it can trust.
 *
 * The unit files mostly wait on sockets, child processes and timers, not on the CPU: four of
 * them at a time on the 2-core reference machine (vitest's default there is one). They share
 * their worker's module cache (`isolate: false`: 25 s of imports instead of 90 s): no test
 * mocks a module or changes process-wide state, and every server and registry a test makes is
 * its own.
 */
const TIMING = ['test/**/*.timing.test.ts'];
/** Tests over what the others left behind (every report.json the CLI wrote): run last. */
const READBACK = ['test/**/*.readback.test.ts'];

export default defineConfig({
  test: {
    testTimeout: TEST_HANG_MS,
    hookTimeout: TEST_HANG_MS,
    // expect.poll's bound (vitest's default: 1 s) is a hang detector too.
    expect: { poll: { timeout: HANG_MS } },
    pool: 'forks',
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: [...TIMING, ...READBACK],
          maxWorkers: 4,
          isolate: false,
          globalSetup: ['test/helpers/reports-setup.ts'],
        },
      },
      {
        extends: true,
        test: { name: 'timing', include: TIMING, fileParallelism: false },
      },
      {
        extends: true,
        test: { name: 'readback', include: READBACK },
      },
    ],
  },
});
