/**
 * `droidcheck receive`: the webhook receiver as a standalone service publishing to a Redis Stream
 * (so load shards on other machines get the deliveries; docs/scale.md), until SIGINT/SIGTERM. Thin
 * wrapper over `startReceive()` (src/jobs/receive/receive.ts). Exit 0 after a clean stop (nothing accepted
 * and unpublished); 2 for a usage mistake or a Redis that cannot be reached at the start.
 */
import { once } from 'node:events';
import type { Command } from 'commander';
import { startReceive } from '../jobs/index.js';
import { commandConfig, optionCommand } from './job-options.js';
import type { CliContext } from './shared.js';

export function registerReceiveCommand(program: Command, ctx: CliContext): void {
  optionCommand(
    program,
    'receive',
    "receive the service's webhooks and publish them to a Redis Stream for shards on other machines (run/load --deliveries)",
  ).action(async (_flags: unknown, cmd: Command) => {
    const config = await commandConfig('receive', cmd, ctx);
    const service = await startReceive(config);
    const out = (s: string): void => void ctx.stdout.write(`${s}\n`);
    const { urls } = service;
    out(`droidcheck receive: publishing to stream ${service.stream} at ${service.redis}`);
    out(
      `  answer webhook:   ${urls.answer}${config.secret ? '   (the service appends ?secret=DROID_WEBHOOK_SECRET)' : '   (no DROID_WEBHOOK_SECRET: deliveries are accepted without a secret)'}`,
    );
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
