/**
 * The preflight requires only what the job will use: against a service whose answer webhook is
 * not configured (test/helpers/alt-service.ts answers the async endpoint with the docs' 400
 * "thirdPartyAnswerWebhook is not configured..."), a job that sends nothing to
 * get-droid-answer-async (`--mode sync`, scenarios that all say `modes: [sync]`, call steps
 * only) runs, with the missing setting said as a warning; a job with one async answer is refused
 * before anything is sent (exit 2).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startAltService, type AltService } from '../helpers/alt-service.js';
import { freePort } from '../helpers/cli.js';
import { cliInProcess as cli } from '../helpers/in-process-cli.js';

const SUITE = `suite: Sync only
scenarios:
  - name: greets
    humanMessage: Hello there!
    expect: { answer: { present: true } }
`;
const SYNC_MODES = `suite: Declared sync
scenarios:
  - name: greets in sync
    modes: [sync]
    humanMessage: Hello there!
  - name: reads a customer, then greets in sync
    modes: [sync]
    steps:
      - call: customer
        customerId: 5
      - say: Hello there!
`;
const STEPS = `suite: Steps only
scenarios:
  - name: reads a customer
    steps:
      - call: customer
        customerId: 5
        expect: { botEnabled: true }
`;

const WARNING =
  /droidcheck: preflight: ! answer webhook +get-droid-answer-async: HTTP 400 Bad Request: thirdPartyAnswerWebhook is not configured\. .* \(not needed now: no request of this job goes to the async endpoint\) +fix: set the answer webhook URL/;

describe('the preflight of a job that sends nothing to the async endpoint', () => {
  let dir: string;
  let service: AltService;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'droidcheck-preflight-sync-'));
    await writeFile(join(dir, 'sync.yaml'), SUITE);
    await writeFile(join(dir, 'sync-modes.yaml'), SYNC_MODES);
    await writeFile(join(dir, 'steps.yaml'), STEPS);
  });
  afterEach(async () => service?.close());
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  const target = (s: AltService): string[] => ['--base-url', s.url, '--droid-id', String(s.droidId)];
  const env = (s: AltService): Record<string, string> => ({ DROID_API_TOKEN: s.token });

  it('capacity --mode sync runs without an answer webhook, warning about it once', async () => {
    service = await startAltService({ answerWebhook: null, answerDelayMs: 0 });
    const res = await cli(
      [
        'capacity',
        join(dir, 'sync.yaml'),
        ...target(service),
        '--mode',
        'sync',
        '--start-rate',
        '2',
        '--max-rate',
        '2',
        '--warmup',
        '0s',
        '--step-duration',
        '2s',
        '--reporter',
        'json',
        '-o',
        join(dir, 'capacity'),
      ],
      { env: env(service), maxMs: 60_000 },
    );
    expect(res.stderr).not.toContain('DROIDCHECK_ERR_SETUP');
    expect(res.stderr).toMatch(WARNING);
    expect(res.stderr.match(/preflight: ! answer webhook/g)).toHaveLength(1);
    expect(res.code, res.stderr).not.toBe(2);
    expect(service.stats.syncAnswered).toBeGreaterThan(0);
    expect(service.stats.asyncAccepted).toBe(0);
  });

  it('run of call steps only, of scenarios declared sync, or with --mode sync runs (exit 0); an answer in both modes is refused (exit 2)', async () => {
    service = await startAltService({ answerWebhook: null });
    for (const file of ['steps.yaml', 'sync-modes.yaml']) {
      const res = await cli(
        ['run', join(dir, file), ...target(service), '--reporter', 'console', '-o', join(dir, file)],
        { env: env(service) },
      );
      expect(res.code, res.stdout + res.stderr).toBe(0);
      expect(res.stderr).toMatch(WARNING);
    }

    const sync = await cli(
      [
        'run',
        join(dir, 'sync.yaml'),
        ...target(service),
        '--mode',
        'sync',
        '--reporter',
        'console',
        '-o',
        join(dir, 'sync'),
      ],
      { env: env(service) },
    );
    expect(sync.code, sync.stdout + sync.stderr).toBe(0);

    const both = await cli(
      [
        'run',
        join(dir, 'sync.yaml'),
        ...target(service),
        '--receiver-port',
        String(await freePort()),
        '--reporter',
        'console',
        '-o',
        join(dir, 'both'),
      ],
      { env: env(service) },
    );
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('DROIDCHECK_ERR_SETUP: preflight against');
    expect(both.stderr).toMatch(
      /✗ answer webhook +get-droid-answer-async: HTTP 400 Bad Request: thirdPartyAnswerWebhook is not configured/,
    );
    expect(service.stats.asyncAccepted).toBe(0);
  });
});
