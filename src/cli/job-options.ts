/**
 * The options every traffic-sending command (run, load, capacity) shares, and the one way they
 * become a ResolvedConfig: only what the user typed (commander's defaults are documentation),
 * over the config file's flags for that command, over `.env` and the environment
 * (config/resolve.ts). One meaning per short flag across commands: `-c` concurrency, `-m` mode,
 * `-o` report directory, `-t` timeout, `-r` reporter, `-d` duration.
 */
import type { Command } from 'commander';
import { DEFAULT_CONFIG_FILE, fileFlags, loadConfigFile, resolveConfig, withDotenv, type JobFlags, type JobKind, type ResolvedConfig } from '../config/index.js';
import { checkReportPaths, checkReporters, checkThresholds } from './flag-values.js';
import { collect, explicitOptions, type CliContext } from './shared.js';

/** Adds the shared options (target, receiver, reports, thresholds, selection) to `command`. */
export function addJobOptions(command: Command): Command {
  return command
    .option('-m, --mode <mode>', "override the scenarios' modes: sync, async or both")
    .option('--tag <tag>', 'only scenarios with this tag (repeatable: any of them)', collect, [])
    .option('--exclude-tag <tag>', 'leave out scenarios with this tag (repeatable), e.g. emulator-only against a real service', collect, [])
    .option('--grep <text>', 'only scenarios whose "suite name" contains the text (ignoring case); /re/flags for a regex')
    .option('-o, --report-dir <dir>', 'where reports are written (default: reports)')
    .option('-r, --reporter <name>', 'reporter, repeatable: console, json, junit, html, markdown, ndjson, progress (default: all)', collect, [])
    .option('--output-file <name=path>', 'output path of one reporter, repeatable, e.g. junit=out/junit.xml', collect, [])
    .option('-t, --timeout <duration>', 'deadline per request (sync answer or webhook), with its unit (default: 180s)')
    .option('--message-webhook-check <duration>', "how long the first send that waits for the bot's reply waits for any forwarded message (its own echo included) before every reply wait fails at once (default: 15s)")
    .option('--threshold <expr>', 'SLO threshold, repeatable, e.g. "ack.p99 < 100ms"', collect, [])
    .option('--no-default-thresholds', "do not judge the spec's limits (ack.p99 < 100ms, answer.max < 180s, sync.max < 180s)")
    .option('--sync-message <form>', 'humanMessage form of get-droid-answer: auto (find out), object or string (default: auto)')
    .option('--retries <n>', 'retry a submit answered 429 or 5xx up to N times (Retry-After honoured, backoff with jitter; default 0)')
    .option('--no-warm-up', 'do not open connections with a read-only call before measuring')
    .option('--base-url <url>', 'real service base URL (env DROID_BASE_URL); token from DROID_API_TOKEN')
    .option('--droid-id <id>', 'droid id of the real service (env DROID_ID)')
    .option('--receiver-host <host>', 'address the webhook receiver binds to (default: 127.0.0.1)')
    .option('--receiver-port <port>', 'port of the webhook receiver (default: 0, any free port)')
    .option('--public-url <url>', 'public webhook URL when a tunnel is in front of the receiver')
    .option('--grace <duration>', 'after an interrupt, how long in-flight requests may finish (default: 5s)')
    .option('--config <file>', `config file of default flags (default: ./${DEFAULT_CONFIG_FILE} when present)`)
    .option('--judge-model <name>', 'chat model grading `judge` expectations (OpenAI-compatible: OPENAI_BASE_URL, OPENAI_API_KEY)')
    .option('--embedding-model <name>', 'embedding model of `similar` expectations')
    .option('--no-cache', 'neither read nor write the judge and embedding cache (.droidcheck/cache)')
    .option('--deliveries [redis-url]', 'start no receiver: read deliveries from the Redis Stream `droidcheck receive` fills (no URL: DROIDCHECK_REDIS_URL)')
    .option('--stream <key>', 'stream key of --deliveries (env DROIDCHECK_STREAM; default: droidcheck:deliveries)')
    .option('--metrics-port <port>', 'serve Prometheus metrics at http://host:port/metrics while the job runs (0: any free port)')
    .option('--metrics-host <host>', 'address of the metrics server (default: 127.0.0.1)')
    .option('--metrics-linger <duration>', 'keep serving metrics this long after the job, so the last scrape sees the final counts (default: 0)');
}

/** Maps commander's option names to JobFlags names (repeatables renamed). */
function toFlags(opts: Record<string, unknown>, paths: string[] | undefined): JobFlags {
  const { threshold, reporter, tag, excludeTag, outputFile, weight, warmUp, defaultThresholds, cache, config: _config, ...rest } = opts as Record<string, unknown> & {
    cache?: boolean;
    threshold?: string[];
    reporter?: string[];
    tag?: string[];
    excludeTag?: string[];
    outputFile?: string[];
    weight?: string[];
    warmUp?: boolean;
    defaultThresholds?: boolean;
  };
  return {
    ...(rest as JobFlags),
    ...(paths && paths.length > 0 && { paths }),
    ...(threshold && { thresholds: threshold }),
    ...(reporter && { reporters: reporter }),
    ...(tag && { tags: tag }),
    ...(excludeTag && { excludeTags: excludeTag }),
    ...(outputFile && { outputFiles: outputFile }),
    ...(weight && { weights: weight }),
    ...(warmUp === false && { warmUp: false }),
    ...(defaultThresholds === false && { defaultThresholds: false }),
    ...(cache === false && { cache: false }),
  };
}

/**
 * The resolved config of `kind` from what the user typed on `cmd`, the config file (`--config`,
 * or ./droidcheck.config.yaml when present), `.env` and the environment.
 * Throws UsageError / ConfigError / ScenarioError (file:line:col): exit 2.
 */
export async function jobConfig(kind: JobKind, cmd: Command, ctx: CliContext): Promise<ResolvedConfig> {
  const explicit = explicitOptions<Record<string, unknown>>(cmd);
  const configPath = explicit.config as string | undefined;
  const file = await loadConfigFile(configPath ?? DEFAULT_CONFIG_FILE, configPath !== undefined);
  const flags = toFlags(explicit, cmd.args.length > 0 ? (cmd.processedArgs[0] as string[]) : undefined);
  const config = resolveConfig(kind, flags, withDotenv(ctx.env), fileFlags(file, kind));
  // Mistakes the library would report without the flag's name, or only after sending.
  await checkThresholds(flags.thresholds ?? []);
  await checkReporters(flags.reporters ?? []);
  await checkReportPaths(config.reportDir, config.reporters, config.outputFile, flags.reportDir !== undefined ? '--report-dir' : 'reportDir');
  return config;
}
