import { relative } from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { HANG_MS, TEST_HANG_MS } from './test/helpers/hang.js';

/**
 * Three projects: `unit` (every test, files in parallel), `timing` (tests that assert measured
 * time, latencies or growth, and tests that need a core to themselves for seconds, named
 * `*.timing.test.ts` whatever their folder: one file at a time, with a core to themselves, so a
 * parallel test does not distort what they measure nor they slow it), and `readback` (tests over
 * every report.json the other projects' CLI runs wrote, last). `npm test` (test/run.mjs) runs
 * unit beside timing (at nice 10 until timing ends: timing comes first for the CPU), then
 * readback.
 *
 * Timeouts are hang detectors, not speed assertions (test/helpers/hang.ts): a test or a hook
 * gets TEST_HANG_MS, each wait inside it HANG_MS, so a busy machine makes the suite slower but
 * never red. A test that must be fast says so in a timing test, on a clock it can trust.
 *
 * The unit files mostly wait on sockets, child processes and timers, not on the CPU: four of
 * them at a time on the 2-core reference machine (vitest's default there is one). They share
 * their worker's module cache (`isolate: false`: 25 s of imports instead of 90 s), and so do the
 * timing files, one after the other in one worker (a few seconds instead of 15): no test mocks a
 * module or changes process-wide state, and every server and registry a test makes is its own.
 */
const TIMING = ['test/**/*.timing.test.ts'];

/**
 * The unit files that take longest (a child process's work, or real waits of tens of seconds),
 * longest first: started first, none of them is the last to end. vitest orders files by the
 * durations of the last run it recorded (node_modules/.vite), and a fresh clone's by size, which
 * would start the 4 KB install test, the longest, among the last.
 */
const LONGEST = [
  'test/install/install.test.ts',
  'test/action/action.test.ts',
  'test/jobs/shards.test.ts',
  'test/action/workflows.test.ts',
  'test/jobs/alt-service.test.ts',
  'test/policy/policy-cli.test.ts',
  'test/jobs/receive-kill.test.ts',
  'test/api.test.ts',
  'test/cli/cli.test.ts',
  'test/cli/tables-and-code.test.ts',
];

/** vitest's order, but the LONGEST files that have no recorded duration first. */
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (f: TestSpecification): number => {
      const path = relative(f.project.config.root, f.moduleId);
      const recorded = this.ctx.cache.getFileTestResults(`${f.project.name}:${path}`);
      const at = LONGEST.indexOf(path);
      return recorded || at < 0 ? LONGEST.length : at;
    };
    return sorted
      .map((f, i) => ({ f, i, r: rank(f) }))
      .sort((a, b) => a.r - b.r || a.i - b.i)
      .map((x) => x.f);
  }
}
/** Tests over what the others left behind (every report.json the CLI wrote): run last. */
const READBACK = ['test/**/*.readback.test.ts'];

export default defineConfig({
  test: {
    testTimeout: TEST_HANG_MS,
    hookTimeout: TEST_HANG_MS,
    // expect.poll's bound (vitest's default: 1 s) is a hang detector too.
    expect: { poll: { timeout: HANG_MS } },
    pool: 'forks',
    sequence: { sequencer: LongestFirst },
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
        test: { name: 'timing', include: TIMING, fileParallelism: false, isolate: false },
      },
      {
        extends: true,
        test: { name: 'readback', include: READBACK },
      },
    ],
  },
});
