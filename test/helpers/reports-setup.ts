/**
 * globalSetup of the `unit` project: empties the folder where the CLI spawner collects every
 * report.json the tests write (helpers/cli.ts, COLLECTED_REPORTS), so the `readback` project
 * reads this run's reports only.
 */
import { rmSync } from 'node:fs';
import { COLLECTED_REPORTS } from './cli.js';

export default function setup(): void {
  rmSync(COLLECTED_REPORTS, { recursive: true, force: true });
}
