/**
 * `run(config, io)`: the main job as a library call (`droidcheck run` wraps it). Every scenario
 * x mode x repeat of the selected suites, closed model (`--concurrency` in flight, chains of
 * stateful scenarios one at a time: runner/plan.ts), against the embedded emulator by default;
 * the reports, and the exit code (docs/exit-codes.md). Pipeline: pipeline.ts.
 */
import type { ResolvedConfig, RunConfig } from '../config/index.js';
import { PlanSource, runEngine } from '../runner/index.js';
import { runJob, type JobIO, type JobSummary } from './pipeline.js';
import { simulatorFor } from './simulator.js';

/**
 * Throws ScenarioError / UsageError / ConfigError / ThresholdError (exit 2) before anything is
 * sent, SetupError (exit 2) when every request failed the same set-up way; after that every
 * problem of the target is an outcome in the report.
 */
export function run(config: ResolvedConfig, io: JobIO): Promise<JobSummary> {
  // Any job's configuration runs as a run (a load's settings are not used).
  const runConfig: RunConfig = { ...config, command: 'run' };
  return runJob(runConfig, io, async (ctx) => {
    const source = PlanSource.of(ctx.suites, config.mode);
    await ctx.begin(source.planned);
    const simulated = simulatorFor(runConfig, ctx.suites);
    try {
      const engine = await runEngine({
        ...ctx.engine,
        source,
        scheduler: { kind: 'closed', concurrency: config.concurrency },
        keepRecords: true,
        grader: ctx.grader,
        simulator: simulated?.simulator,
      });
      return { engine };
    } finally {
      await simulated?.close();
    }
  });
}
