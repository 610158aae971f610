/**
 * No silent waits against a remote target whose webhooks do not reach droidcheck (the normal
 * state of a first try), through the CLI (in process) against real loopback fake services:
 *
 * - a remote run that waits for webhooks on a random receiver port is refused before anything of
 *   the suite is sent (exit 2, naming the flags);
 * - a service that acknowledges every async request and never delivers: the run stops after the
 *   first deadlines (exit 2, one sentence naming the receiver's URL and the setting), not after
 *   every request waited out its timeout; the accounting still adds up (else exit 70);
 * - a service that answers but does not forward messages: the portable "bot's reply through the
 *   message webhook" scenario fails after the message-webhook check (`--message-webhook-check`,
 *   15 s by default, 2 s here), naming `/messages`, instead of waiting out its 180 s window.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config/index.js';
import { startAltService } from '../helpers/alt-service.js';
import { freePort } from '../helpers/cli.js';
import { cliInProcess as cli } from '../helpers/in-process-cli.js';
import { startSettingsService, type SettingsService } from '../helpers/settings-service.js';
import { unwrapped } from '../helpers/console-text.js';

const SECRET = 'silent-webhook-secret-0123456789abcdefgh';
const VERIFY = 'silent-verify-token-0123456789abcdefghij';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length > 0) await closers.pop()!();
});

async function silentService(): Promise<SettingsService> {
  const s = await startSettingsService();
  closers.push(() => s.close());
  return s;
}

async function suite(body: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'droidcheck-silent-'));
  closers.push(() => rm(dir, { recursive: true, force: true }));
  const file = join(dir, 'async.yaml');
  await writeFile(file, body);
  return file;
}

const ASYNC_SUITE = `suite: Async
scenarios:
  - name: hello
    modes: [async]
    repeat: 12
    humanMessage: Hello
`;

describe('a remote run whose webhooks cannot arrive', () => {
  it('is refused before sending when the receiver would listen on a random port (exit 2, naming the flags)', async () => {
    const s = await silentService();
    const file = await suite(ASYNC_SUITE);
    const res = await cli(
      ['run', file, '--base-url', s.url, '--droid-id', String(s.droidId), '--reporter', 'console', '--no-warm-up'],
      { env: { DROID_API_TOKEN: s.token } },
    );
    expect(res.code, res.stderr).toBe(2);
    expect(res.stderr).toMatch(
      /DROIDCHECK_ERR_CONFIG: 1 scenario\(s\) \(e\.g\. "hello"\) wait for the service's webhooks, but the receiver would listen on a random port: the service posts to the URLs in its settings .* give --receiver-port .* or --public-url .* or --deliveries/,
    );
    // Refused from the configuration alone, before the preflight's probes: nothing reached the
    // async endpoint (droidcheck validate refuses it too).
    expect(s.stats.asyncRequests).toBe(0);
    expect(res.stderr).not.toContain(s.token);
  });

  it('stops after the first deadlines when nothing at all is delivered (exit 2, one sentence), not after every request waited', async () => {
    const s = await silentService();
    const file = await suite(ASYNC_SUITE.replace('repeat: 12', 'repeat: 40'));
    const port = await freePort();
    const res = await cli(
      [
        'run',
        file,
        '--base-url',
        s.url,
        '--droid-id',
        String(s.droidId),
        '--receiver-port',
        String(port),
        '--timeout',
        '3s',
        '--concurrency',
        '4',
        '--reporter',
        'console',
        '--no-warm-up',
      ],
      {
        env: { DROID_API_TOKEN: s.token, DROID_WEBHOOK_SECRET: SECRET },
      },
    );
    expect(res.code, res.stderr).toBe(2);
    const line = res.stderr.split('\n').find((l) => l.includes('DROIDCHECK_ERR_SETUP')) ?? '';
    // The breaker trips at the third; the others of the same round ended at the same moment.
    expect(line).toMatch(
      new RegExp(
        `the first [34] async answers from ${s.url.replace(/\./g, '\\.')} \\(droid ${s.droidId}\\) passed the deadline: no webhook within 3 s and nothing at all reached droidcheck`,
      ),
    );
    expect(line).toContain(
      `Settings > Integrations, "When AI Answer Ready"), so set it to http://127.0.0.1:${port}/webhook`,
    );
    expect(line).toContain('raise --timeout');
    expect(line).not.toContain(SECRET);
    // 40 planned at 4 in flight would take 10 rounds of 3 s (30 s); the first round stops it (a
    // worker whose request ended before the breaker tripped may have sent one more: interrupted).
    // Judged on what the service counted, not on the wall clock of a machine that may be busy.
    expect(s.stats.asyncAcked).toBeLessThanOrEqual(1 + 4 + 4);
  });

  it('a run of one async request that times out with nothing received ends the same way', async () => {
    const s = await silentService();
    const file = await suite(ASYNC_SUITE.replace('repeat: 12', 'repeat: 1'));
    const port = await freePort();
    const res = await cli(
      [
        'run',
        file,
        '--base-url',
        s.url,
        '--droid-id',
        String(s.droidId),
        '--receiver-port',
        String(port),
        '--timeout',
        '1s',
        '--reporter',
        'console',
        '--no-warm-up',
      ],
      {
        env: { DROID_API_TOKEN: s.token },
      },
    );
    expect(res.code, res.stderr).toBe(2);
    expect(res.stderr).toContain('the first 1 async answer from');
    expect(res.stderr).toContain(`set it to http://127.0.0.1:${port}/webhook`);
  });
});

describe('a remote target that answers but does not forward messages', () => {
  it('the portable reply scenario fails after the message-webhook check (15 s by default), naming /messages, not after the 180 s reply window', async () => {
    expect(resolveConfig('run', {}, {}).messageWebhookCheckMs).toBe(15_000);
    const port = await freePort();
    const service = await startAltService({
      answerWebhook: { url: `http://127.0.0.1:${port}/webhook`, secret: SECRET },
      messageWebhook: null,
      duplicateEvery: 0,
    });
    closers.push(() => service.close());
    const reportDir = await mkdtemp(join(tmpdir(), 'droidcheck-silent-out-'));
    closers.push(() => rm(reportDir, { recursive: true, force: true }));
    const t0 = performance.now();
    const res = await cli(
      [
        'run',
        'scenarios/steps/conversation.yaml',
        '--grep',
        'message webhook',
        '--base-url',
        service.url,
        '--droid-id',
        String(service.droidId),
        '--receiver-port',
        String(port),
        '--public-url',
        `https://tunnel.example/webhook`,
        '--reporter',
        'console',
        '-o',
        reportDir,
        '--no-warm-up',
        '--message-webhook-check',
        '2s',
      ],
      {
        env: { DROID_API_TOKEN: service.token, DROID_WEBHOOK_SECRET: SECRET, DROID_VERIFY_TOKEN: VERIFY },
      },
    );
    const wallMs = performance.now() - t0;
    expect(res.code, res.stderr + res.stdout).toBe(1);
    expect(unwrapped(res.stdout)).toContain(
      "no message webhook delivery in 2 s, not even the copy of customer 5's own message: configure the Automation Panel's message webhook as https://tunnel.example/messages with the verify token",
    );
    expect(res.stdout).not.toContain(VERIFY);
    expect(service.stats.messagesForwarded).toBe(0);
    // It waited the 2 s check; had it waited the scenario's 180 s instead, the hang bound
    // (HANG_MS, 120 s) would have failed the run above.
    expect(wallMs).toBeGreaterThan(1_900);
  });
});
