/**
 * `droidcheck receive`: the webhook receiver as a standalone service publishing to a Redis Stream
 * (so load shards on other machines get the deliveries; docs/scale.md), until SIGINT/SIGTERM. Thin
 * wrapper over `startReceive()` (src/jobs/receive.ts). Exit 0 after a clean stop (nothing accepted
 * and unpublished); 2 for a usage mistake or a Redis that cannot be reached at the start.
 */
import { once } from 'node:events';
import type { Command } from 'commander';
import { resolveReceiveConfig, withDotenv, type ReceiveFlags } from '../config/index.js';
import { startReceive } from '../jobs/index.js';
import { explicitOptions, type CliContext } from './shared.js';

export function registerReceiveCommand(program: Command, ctx: CliContext): void {
  program
    .command('receive')
    .description('receive the service\'s webhooks and publish them to a Redis Stream for shards on other machines (run/load --deliveries)')
    .option('--redis <url>', 'Redis to publish to, redis://host:6379/0 (env DROIDCHECK_REDIS_URL; a password only there)')
    .option('--stream <key>', 'stream key (env DROIDCHECK_STREAM; default: droidcheck:deliveries)')
    .option('--host <host>', 'address to bind (default: 127.0.0.1; 0.0.0.0 in a container)')
    .option('--port <n>', 'port to listen on (default: 8787; 0: any free port)')
    .option('--max-len <n>', 'trim the stream to about this many entries, 0: never (default: 1000000)')
    .option('--redis-timeout <duration>', 'answer 503 (the service retries) when Redis takes longer to store a delivery (default: 2s)')
    .option('--id <name>', 'receiver id written to every entry (default: hostname:pid)')
    .option('--metrics-port <port>', 'serve Prometheus metrics at http://host:port/metrics (0: any free port)')
    .option('--metrics-host <host>', 'address of the metrics server (default: 127.0.0.1)')
    .action(async (_flags: unknown, cmd: Command) => {
      const config = resolveReceiveConfig(explicitOptions<ReceiveFlags>(cmd), withDotenv(ctx.env));
      const service = await startReceive(config);
      const out = (s: string): void => void ctx.stdout.write(`${s}\n`);
      const { urls } = service;
      out(`droidcheck receive: publishing to stream ${service.stream} at ${service.redis}`);
      out(`  answer webhook:   ${urls.answer}${config.secret ? '   (the service appends ?secret=DROID_WEBHOOK_SECRET)' : '   (no DROID_WEBHOOK_SECRET: deliveries are accepted without a secret)'}`);
      out(`  message webhook:  ${urls.messages}${config.verifyToken ? '   (?verify_token=DROID_VERIFY_TOKEN)' : ''}`);
      out(`  intent webhook:   ${urls.intents}`);
      out(`  health:           ${urls.health}`);
      if (service.metricsUrl) out(`  metrics:          ${service.metricsUrl}`);
      out('Press Ctrl+C to stop (SIGTERM too: requests in flight are published and answered first).');
      const signal = await Promise.race([once(process, 'SIGINT'), once(process, 'SIGTERM')]);
      const s = await service.close();
      out(
        `droidcheck receive: stopped (${String(signal[0] ?? 'signal')}): received ${s.received} · published ${s.published} · bad secret ${s.badSecret} · malformed ${s.malformed} · unavailable ${s.unavailable}`,
      );
    });
}
