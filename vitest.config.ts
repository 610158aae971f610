import { defineConfig } from 'vitest/config';

/**
 * Two projects: `unit` (every test, files in parallel) and `timing` (tests that assert measured
 * latencies, named `*.timing.test.ts` whatever their folder: they run alone, one file at a time,
 * so a parallel test on the other core does not distort what they measure), and `readback`
 * (tests over every report.json the other projects' CLI runs wrote). `npm test` runs them one
 * after the other.
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
    testTimeout: 30_000,
    hookTimeout: 30_000,
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
