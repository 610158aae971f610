/**
 * globalSetup of the `unit` project: empties the folder where the CLI spawner collects every
 * report.json the tests write (helpers/cli.ts, COLLECTED_REPORTS), so the `readback` project
 * reads this run's reports only; unless DROIDCHECK_TEST_REPORTS_CLEARED=1 says `npm test`
 * (test/run.mjs) did it before starting the timing project beside this one (its CLI runs
 * collect there too).
 */
import { rmSync } from 'node:fs';
import { COLLECTED_REPORTS } from './cli.js';

export default function setup(): void {
  if (process.env.DROIDCHECK_TEST_REPORTS_CLEARED === '1') return;
  rmSync(COLLECTED_REPORTS, { recursive: true, force: true });
}
