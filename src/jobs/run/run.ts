/**
 * `run(config, io)`: the main job as a library call (`droidcheck run` wraps it). Every scenario
 * x mode x repeat of the selected suites, closed model (`--concurrency` in flight, chains of
 * stateful scenarios one at a time: runner/plan.ts), against the embedded emulator by default;
 * the reports, and the exit code (docs/exit-codes.md). Its spec (job-spec.ts) through the one
 * pipeline (pipeline.ts).
 */
import { publicSettings, type ResolvedConfig, type RunConfig } from '../../config/index.js';
import { PlanSource, runEngine } from '../../runner/index.js';
import type { JobIO, JobSpec, JobResult } from '../pipeline/job-spec.js';
import { runJob } from '../pipeline/pipeline.js';
import { simulatorFor } from '../pipeline/simulator.js';

/**
 * `run` as a spec: reads the suites (`--shard` deals whole scenarios), sends the plan through
 * the closed model, grades `judge`/`similar` and plays `simulate:` customers, judges the spec's
 * limits, and keeps every answer in results.ndjson.
 */
export function runSpec(config: RunConfig): JobSpec<RunConfig> {
  return {
    kind: 'run',
    reads: { deal: 'scenarios', shard: config.shard },
    judges: { grader: 'expectations', simulates: true },
    settings: publicSettings,
    ndjsonAnswers: 'all',
    async send(ctx) {
      const source = PlanSource.of(ctx.suites, ctx.config.mode);
      await ctx.begin(source.planned);
      const traffic = await runEngine({
        ...ctx.engine,
        source,
        scheduler: { kind: 'closed', concurrency: ctx.config.concurrency },
        keepRecords: true,
        grader: ctx.grader,
        simulator: simulatorFor(ctx.config, ctx.models, ctx.suites, ctx.budget),
      });
      return { traffic };
    },
  };
}

/**
 * Throws ScenarioError / UsageError / ConfigError / ThresholdError (exit 2) before anything is
 * sent, SetupError (exit 2) when every request failed the same set-up way; after that every
 * problem of the target is an outcome in the report.
 */
export function run(config: ResolvedConfig, io: JobIO): Promise<JobResult> {
  // Any job's configuration runs as a run (a load's settings are not used).
  const runConfig: RunConfig = { ...config, command: 'run' };
  return runJob(runSpec(runConfig), runConfig, io);
}
